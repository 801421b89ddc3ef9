#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* ---- Things Swift cannot import from curses.h (macros, stdscr). ---- */
static inline attr_t opsdash_a_normal(void) { return A_NORMAL; }
static inline attr_t opsdash_a_bold(void) { return A_BOLD; }
static inline attr_t opsdash_a_dim(void) { return A_DIM; }
static inline attr_t opsdash_a_reverse(void) { return A_REVERSE; }
static inline attr_t opsdash_a_underline(void) { return A_UNDERLINE; }
static inline WINDOW *opsdash_stdscr(void) { return stdscr; }
static inline int opsdash_color_pairs(void) { return COLOR_PAIRS; }
static inline void opsdash_getmaxyx(int *y, int *x) { int yy, xx; getmaxyx(stdscr, yy, xx); *y = yy; *x = xx; }
static inline int opsdash_timeout(int ms) { wtimeout(stdscr, ms); return OK; }
static inline int opsdash_keypad(bool on) { return keypad(stdscr, on); }
static inline int opsdash_scrollok(bool on) { return scrollok(stdscr, on); }
static inline int opsdash_clearok(bool on) { return clearok(stdscr, on); }
static inline int opsdash_leaveok(bool on) { return leaveok(stdscr, on); }
static inline int opsdash_get_wch(wint_t *ch) { return wget_wch(stdscr, ch); }
static inline int opsdash_refresh(void) { return wrefresh(stdscr); }
/* Columns curses gives a character (glibc declares wcwidth only under _XOPEN_SOURCE). */
#if defined(__GLIBC__) && !defined(__USE_XOPEN)
int wcwidth(wchar_t c);
#endif
static inline int opsdash_wcwidth(wchar_t c) { return wcwidth(c); }
static inline int opsdash_put_cells(int y, int x, const cchar_t *cells, int n) {
    return mvwadd_wchnstr(stdscr, y, x, cells, n);
}
static inline int opsdash_set_cell(cchar_t *cell, const wchar_t *text, attr_t attrs, short pair) {
    return setcchar(cell, text, attrs, pair, NULL);
}
/* ioctl is variadic, so Swift can't call it: set a terminal device's size in cells. */
static inline int opsdash_set_window_size(int fd, unsigned short rows, unsigned short cols) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = rows;
    size.ws_col = cols;
    return ioctl(fd, TIOCSWINSZ, &size);
}
/* A pseudo-terminal's master side, for running a screen without a real terminal (tests,
   measurements): its descriptor, or -1; the slave's path is copied into `name`. glibc hides
   the XSI pty calls unless _XOPEN_SOURCE is defined, so they are declared here. */
#if defined(__GLIBC__) && !defined(__USE_XOPEN2KXSI)
int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
char *ptsname(int fd);
#endif
static inline int opsdash_open_pseudo_terminal(char *name, size_t length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) return -1;
    const char *path = (grantpt(master) == 0 && unlockpt(master) == 0) ? ptsname(master) : NULL;
    if (path == NULL || strlen(path) >= length) { close(master); return -1; }
    strcpy(name, path);
    return master;
}

/* Bytes waiting to be read on a terminal device (FIONREAD; ioctl is variadic), or -1 on error.
   Readable with none waiting means end of file or a hang-up. Stateless. */
static inline int opsdash_bytes_readable(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

#endif
