#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"

/* Fixed tables, so that a signal handler walks them without locks or
 * allocation; the main flow changes them with signals blocked. */
#define MAX_FILES 64
#define MAX_SECRETS 64
#define MAX_CHILDREN 8

static char *files[MAX_FILES];
static char *dirs[MAX_FILES];
static struct { void *p; size_t size; } secrets[MAX_SECRETS];
static pid_t children[MAX_CHILDREN];

static int tty_fd = -1;
static struct termios tty_saved, tty_raw;
static void (*tty_resumed)(void);

/* Every signal whose default action ends the process and that a handler
 * may catch.  SIGXFSZ is not here: it is ignored, so that a file size
 * limit makes writes fail (and be reported) instead of killing us. */
static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGVTALRM, SIGPROF,
#ifdef SIGPOLL
	SIGPOLL,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};

/* The signals of a crash: a fault in our code or a plugin's, abort(), or
 * the same sent with kill.  They are caught whatever the disposition we
 * were started with (the kernel ignores an ignored fault anyway), so that
 * a crash, too, removes the temporary files that hold the deals. */
static const int crash_signals[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS,
};

static void
block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void
restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Async-signal-safe: kill, unlink, tcsetattr and plain stores only. */
static void
undo_all(void)
{
	/* a child working for us (dl-web's analysis in dl-dd) ends with us,
	 * rather than work on for nobody until its own limit */
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			kill(children[i], SIGTERM);
	for (size_t i = 0; i < MAX_FILES; i++)
		if (files[i] != NULL)
			unlink(files[i]);
	for (size_t i = 0; i < MAX_FILES; i++)
		if (dirs[i] != NULL)
			rmdir(dirs[i]);
	if (tty_fd != -1)
		tcsetattr(tty_fd, TCSAFLUSH, &tty_saved);
	for (size_t i = 0; i < MAX_SECRETS; i++)
		if (secrets[i].p != NULL)
			sodium_memzero(secrets[i].p, secrets[i].size);
}

/* For a fault the faulting instruction runs again once the handler
 * returns, now under the default action; for a signal sent, the raise
 * below, blocked until then, ends us the same way. */
static void
on_fatal_signal(int sig)
{
	undo_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
on_stop(int sig)
{
	int saved = errno;

	(void)sig;
	if (tty_fd != -1)
		tcsetattr(tty_fd, TCSAFLUSH, &tty_saved);
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	/* stopped here until SIGCONT: then SIGTSTP is ours again */
	signal(SIGTSTP, on_stop);
	errno = saved;
}

static void
on_continue(int sig)
{
	int saved = errno;

	(void)sig;
	if (tty_fd != -1) {
		tcsetattr(tty_fd, TCSAFLUSH, &tty_raw);
		if (tty_resumed != NULL)
			tty_resumed();
	}
	errno = saved;
}

static void
exit_cleanup(void)
{
	sigset_t old;

	/* a signal now must not find a path freed under it */
	block_signals(&old);
	undo_all();
	for (size_t i = 0; i < MAX_FILES; i++) {
		free(files[i]);
		files[i] = NULL;
		free(dirs[i]);
		dirs[i] = NULL;
	}
	tty_fd = -1;
	restore_signals(&old);
}

void
cleanup_init(void)
{
	static int done;
	struct sigaction sa, old;

	if (done)
		return;
	done = 1;
	atexit(exit_cleanup);
	memset(&sa, 0, sizeof sa);
	sigfillset(&sa.sa_mask);	/* one handler at a time */
	sa.sa_handler = on_fatal_signal;
	for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;	/* nohup and friends: stay ignored */
		sigaction(fatal_signals[i], &sa, NULL);
	}
	/* a stack overflow must still find a stack to clean up on (the
	 * main thread's; a plugin's thread has none of its own) */
	static char crash_stack[64 * 1024];
	stack_t ss = { .ss_sp = crash_stack, .ss_size = sizeof crash_stack };
	if (sigaltstack(&ss, NULL) == 0)
		sa.sa_flags = SA_ONSTACK;
	for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
		sigaction(crash_signals[i], &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
}

void
cleanup_finish_regardless(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

/* One registry or the other. */
static int
add_path(char **registry, const char *path)
{
	sigset_t old;
	char *copy = strdup(path);
	int slot = -1;

	if (copy == NULL)
		return -1;
	block_signals(&old);
	for (size_t i = 0; i < MAX_FILES && slot == -1; i++)
		if (registry[i] == NULL) {
			registry[i] = copy;
			slot = (int)i;
		}
	restore_signals(&old);
	if (slot == -1) {
		free(copy);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

static void
forget_path(char **registry, const char *path)
{
	sigset_t old;
	char *gone = NULL;

	block_signals(&old);
	for (size_t i = 0; i < MAX_FILES; i++)
		if (registry[i] != NULL && strcmp(registry[i], path) == 0) {
			gone = registry[i];
			registry[i] = NULL;
			break;
		}
	restore_signals(&old);
	free(gone);
}

int
cleanup_add_child(pid_t pid)
{
	sigset_t old;
	int slot = -1;

	block_signals(&old);
	for (size_t i = 0; i < MAX_CHILDREN && slot == -1; i++)
		if (children[i] == 0) {
			children[i] = pid;
			slot = (int)i;
		}
	restore_signals(&old);
	if (slot == -1) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void
cleanup_forget_child(pid_t pid)
{
	sigset_t old;

	block_signals(&old);
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
	restore_signals(&old);
}

int
cleanup_add_file(const char *path)
{
	return add_path(files, path);
}

void
cleanup_forget_file(const char *path)
{
	forget_path(files, path);
}

int
cleanup_add_dir(const char *path)
{
	return add_path(dirs, path);
}

void
cleanup_forget_dir(const char *path)
{
	forget_path(dirs, path);
}

void
cleanup_set_tty(int fd, const struct termios *saved, const struct termios *raw,
    void (*resumed)(void))
{
	struct sigaction sa;
	sigset_t old;

	block_signals(&old);
	tty_saved = *saved;
	tty_raw = *raw;
	tty_resumed = resumed;
	tty_fd = fd;
	memset(&sa, 0, sizeof sa);
	sigfillset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGTSTP, &sa, NULL);
	sa.sa_handler = on_continue;
	sigaction(SIGCONT, &sa, NULL);
	/* whoever types must be able to get out, even where the shell
	 * started us with these ignored (a script's trap "" INT) */
	sa.sa_handler = on_fatal_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	restore_signals(&old);
}

void
cleanup_clear_tty(void)
{
	sigset_t old;

	block_signals(&old);
	tty_fd = -1;
	signal(SIGTSTP, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
	restore_signals(&old);
}

void
cleanup_add_secret(void *p, size_t size)
{
	sigset_t old;

	block_signals(&old);
	for (size_t i = 0; i < MAX_SECRETS; i++)
		if (secrets[i].p == NULL) {
			secrets[i].p = p;
			secrets[i].size = size;
			break;
		}
	restore_signals(&old);
}

void
cleanup_forget_secret(void *p)
{
	sigset_t old;

	block_signals(&old);
	for (size_t i = 0; i < MAX_SECRETS; i++)
		if (secrets[i].p == p)
			secrets[i].p = NULL;
	restore_signals(&old);
}

int
cleanup_thread_create(pthread_t *thread, void *(*run)(void *), void *arg)
{
	sigset_t fatal, old;
	int status;

	sigemptyset(&fatal);
	for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
		sigaddset(&fatal, fatal_signals[i]);
	pthread_sigmask(SIG_BLOCK, &fatal, &old);
	status = pthread_create(thread, NULL, run, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return status;
}

void
cleanup_now(void)
{
	exit_cleanup();
}
