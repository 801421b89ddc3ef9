#ifndef OPSDASH_TERMINAL_RESTORE_H
#define OPSDASH_TERMINAL_RESTORE_H

/* Restoring the terminal when the process dies of a crash signal (SIGSEGV, SIGBUS, SIGILL,
   SIGFPE, SIGABRT, SIGTRAP) while the dashboard has the screen.

   The state these functions share is defined once, in terminal_restore.c: a header-only
   version duplicated it per Swift module in release builds. */

/* Saves the termios of `tty_fd` and installs the crash handlers: on a crash they restore that
   termios, reset attributes, show the cursor and leave the alternate screen on `tty_fd`, then
   re-raise the signal with its default action (so no in-process backtracer holds the terminal).
   Returns 0, or -1 if a handler could not be installed. */
int opsdash_arm_terminal_restore(int tty_fd);

/* After the screen is closed a crash has nothing to restore: the handlers only re-raise. */
void opsdash_disarm_terminal_restore(void);

/* While armed, a crash also gives the unnamed stray-output file `fd` (open with O_TMPFILE) the
   name `name` if anything was written to it, by linking `link_from` (its /proc/self/fd path),
   and says where it is on the terminal. Copies both strings; returns -1 if one is too long. */
int opsdash_keep_output_on_crash(int fd, const char *link_from, const char *name);

/* An unnamed file in `directory` (O_TMPFILE, write-only, mode 0600): its descriptor, or -1
   where the system or the file system has no unnamed files. */
int opsdash_open_unnamed_file(const char *directory);

/* Whether the handlers would restore a terminal now (for tests). */
int opsdash_terminal_restore_is_armed(void);

#endif
