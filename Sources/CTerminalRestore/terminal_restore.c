#define _GNU_SOURCE /* O_TMPFILE */
#include "terminal_restore.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* The one definition of the crash handlers' state. */
static volatile sig_atomic_t restore_fd = -1;
static volatile sig_atomic_t have_termios = 0;
static struct termios saved_termios;
static volatile sig_atomic_t output_fd = -1;
static char output_link_from[64];
static char output_name[4096];

static void write_text(int fd, const char *text) {
    ssize_t ignored = write(fd, text, strlen(text));
    (void)ignored;
}

/* Names the stray-output file if it holds anything; returns whether it did. */
static int keep_output(void) {
    struct stat status;
    int fd = output_fd;
    if (fd < 0 || fstat(fd, &status) != 0 || status.st_size <= 0) return 0;
    return linkat(AT_FDCWD, output_link_from, AT_FDCWD, output_name, AT_SYMLINK_FOLLOW) == 0;
}

/* Only async-signal-safe calls. */
static void crash_handler(int sig) {
    int fd = restore_fd;
    if (fd >= 0) {
        if (have_termios) tcsetattr(fd, TCSANOW, &saved_termios);
        static const char sequence[] = "\x1b[0m\x1b[?25h\x1b[?1049l";
        ssize_t ignored = write(fd, sequence, sizeof sequence - 1);
        (void)ignored;
        if (keep_output()) {
            write_text(fd, "opsdash: crashed; its output is in ");
            write_text(fd, output_name);
            write_text(fd, "\r\n");
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

int opsdash_arm_terminal_restore(int tty_fd) {
    have_termios = 0;
    have_termios = tcgetattr(tty_fd, &saved_termios) == 0;
    restore_fd = tty_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER;
    static const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    int result = 0;
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++)
        if (sigaction(signals[i], &action, NULL) != 0) result = -1;
    return result;
}

void opsdash_disarm_terminal_restore(void) {
    restore_fd = -1;
    output_fd = -1;
}

int opsdash_keep_output_on_crash(int fd, const char *link_from, const char *name) {
    output_fd = -1;
    if (strlen(link_from) >= sizeof output_link_from || strlen(name) >= sizeof output_name) return -1;
    strcpy(output_link_from, link_from);
    strcpy(output_name, name);
    output_fd = fd;
    return 0;
}

int opsdash_terminal_restore_is_armed(void) { return restore_fd >= 0; }

int opsdash_open_unnamed_file(const char *directory) {
#ifdef O_TMPFILE
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
    (void)directory;
    return -1;
#endif
}
