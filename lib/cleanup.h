/* What must be undone however a tool ends — normal exit, an error, or a
 * signal: temporary files removed, the terminal's mode restored, secrets
 * wiped.  This is the only module that installs signal handlers or an
 * atexit handler; everything else registers here. */
#ifndef DL_CLEANUP_H
#define DL_CLEANUP_H

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

/* Does at once what an exit would: for a tool about to exit. */
void cleanup_now(void);

#endif
