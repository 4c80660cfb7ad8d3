/* What must be undone however a tool ends — normal exit, an error, or a
 * signal: temporary files removed, the terminal's mode restored, secrets
 * wiped, children told to end.  This is the only module that installs signal handlers or an
 * atexit handler (but cmd/tool.c's check of standard output); everything
 * else registers here.
 *
 * Threads: the main flow's: call these from one thread only.  A change to
 * the registries is kept from the handlers by blocking signals in the
 * calling thread (sigprocmask), which holds because every thread dl starts
 * is started by cleanup_thread_create, with those signals blocked: they
 * reach the main thread only.  A crash runs the handlers on the thread
 * that crashed; cleanup_init's crash stack is the main thread's. */
#ifndef DL_CLEANUP_H
#define DL_CLEANUP_H

#include <pthread.h>
#include <sys/types.h>
#include <termios.h>

/* Handlers for every catchable signal whose default is to end the process
 * (a signal ignored when the tool started stays ignored, except those of
 * a crash: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS), and
 * one atexit handler.  A tool calls it once, first thing. */
void cleanup_init(void);

/* A temporary file to remove should the tool end before it is published;
 * path is copied.  0, or -1 when the registry is full (errno ENOMEM). */
int cleanup_add_file(const char *path);
/* Published or removed: no longer ours to remove. */
void cleanup_forget_file(const char *path);
/* A temporary directory to remove, after the files registered (dl-web's
 * private one for a request): rmdir, so only once they are gone. */
int cleanup_add_dir(const char *path);
void cleanup_forget_dir(const char *path);

/* A child process that works for the tool (dl-web's analysis in dl-dd),
 * sent SIGTERM should the tool end first; forgotten once waited for.  0,
 * or -1 when the registry (8) is full (errno ENOMEM). */
int cleanup_add_child(pid_t pid);
void cleanup_forget_child(pid_t pid);

/* A terminal put in raw mode: fd and the mode to restore.  On SIGTSTP it
 * is restored before the tool stops; on SIGCONT the raw mode comes back
 * and resumed() (may be NULL) is called from the handler. */
void cleanup_set_tty(int fd, const struct termios *saved, const struct termios *raw,
    void (*resumed)(void));
void cleanup_clear_tty(void);

/* A region to wipe should the tool be ended by a signal (at a normal exit
 * the owner wipes it).  Up to a few dozen regions. */
void cleanup_add_secret(void *p, size_t size);
void cleanup_forget_secret(void *p);

/* pthread_create, the new thread with the signals that end a process
 * blocked (not those of a crash), so that they run the handlers on the
 * main thread: its changes to the registries are kept from the handlers
 * by blocking signals, which holds for its own thread alone.  0, or
 * pthread_create's error. */
int cleanup_thread_create(pthread_t *thread, void *(*run)(void *), void *arg);

/* A process that must finish its work whoever still waits for it
 * (dl-web's deal of a form with a one-time token: a second press gets
 * its answer): from now on SIGTERM, SIGHUP and SIGPIPE are ignored, so
 * that a web server's SIGTERM for a client gone does not end it, and a
 * write to a reader gone fails with EPIPE.  The other signals, and the
 * limits (RLIMIT_CPU), end it still.  A child it starts gets them back
 * as their defaults only if it asks (POSIX_SPAWN_SETSIGDEF). */
void cleanup_finish_regardless(void);
/* Does at once what an exit would: for a tool about to exit. */
void cleanup_now(void);

#endif
