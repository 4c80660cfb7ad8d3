# make memcheck: every tool of the main pipelines under valgrind's memcheck,
# failing on any error or leak of any kind (share/dev/memcheck.sh;
# docs/robustness.md, "valgrind").  A target of its own: make check needs
# no valgrind, and this one says how to install it when it is missing.
memcheck: deps
	@$(MAKE) --no-print-directory all
	@sh share/dev/memcheck.sh "$(BUILD)"

.PHONY: memcheck
