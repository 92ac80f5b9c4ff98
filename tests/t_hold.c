/* SPDX-License-Identifier: ISC */
/*
 * Description: hold a command at a phase, for the fault tests.
 *
 *	t_hold STATUS FD PREFIX [FD PREFIX ...] -- COMMAND [ARG ...]
 *
 * Runs COMMAND traced (ptrace, every thread's syscalls) until one of its
 * threads has written to FD something that begins with PREFIX (a phase's
 * own progress line: "scan 1/", "iodepth 1/"; "" for any write), and keeps
 * that thread stopped right after the write; the others stop at their
 * next syscall.  STATUS then holds one line, "held K PID" (K the hold's
 * number from 1, PID the command's), and t_hold waits for SIGUSR1; the
 * test does what it must while the command cannot move on, then sends
 * SIGUSR1: the command goes on to the next FD PREFIX, or, after the last,
 * each thread is let go untraced at its next stop, and t_hold exits with
 * the command's exit status (128 + N when killed by signal N).  A signal
 * for the command is not sent to it while it is held (the kernel would
 * leave it pending unnoticed: no thread of a stopped process is woken for
 * it) but named in the file STATUS.sig (INT, TERM, HUP or a number)
 * before SIGUSR1: t_hold delivers it to the held thread as it lets it go.
 * When the command ends before a hold, STATUS holds "ended K STATUS" and
 * t_hold exits 125.  Exit 77 when the kernel refuses the tracing.
 * Killing t_hold before the last hold kills the command.  A test never
 * needs to guess from a delay where the command is.
 */
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The exit status of a waitpid status: 128 + N when killed by N. */
static int
t_hold_code(int st)
{
	if (WIFEXITED(st))
		return (WEXITSTATUS(st));
	if (WIFSIGNALED(st))
		return (128 + WTERMSIG(st));
	return (126);
}

/* Say "what k n" in the file path. */
static void
t_hold_say(const char *path, const char *what, int k, long n)
{
	FILE	*f;
	char	 tmp[4096];

	/* Written whole, then renamed: the test never reads half of it. */
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		perror(tmp);
		exit(126);
	}
	fprintf(f, "%s %d %ld\n", what, k, n);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		perror(path);
		exit(126);
	}
}

/* Does the write the tracee just made begin with prefix? */
static int
t_hold_match(pid_t pid, const struct __ptrace_syscall_info *entry, long done,
    const char *prefix)
{
	char		buf[256];
	struct iovec	local, remote;
	size_t		n = strlen(prefix);

	if (n == 0)
		return (1);
	if (n > sizeof buf || done < (long)n)
		return (0);
	local.iov_base = buf;
	local.iov_len = n;
	remote.iov_base = (void *)(uintptr_t)entry->entry.args[1];
	remote.iov_len = n;
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)n)
		return (0);
	return (memcmp(buf, prefix, n) == 0);
}

/* The signal named in path (INT, TERM, HUP or a number; removed), or 0. */
static int
t_hold_signal(const char *status)
{
	static const struct {
		const char	*name;
		int		 sig;
	} names[] = {
		{ "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP },
	};
	char	 path[4096], buf[32];
	FILE	*f;
	size_t	 i;
	int	 sig = 0;

	snprintf(path, sizeof path, "%s.sig", status);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	if (fgets(buf, sizeof buf, f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		sig = atoi(buf);
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strcmp(buf, names[i].name) == 0)
				sig = names[i].sig;
	}
	fclose(f);
	unlink(path);
	return (sig);
}

#define T_HOLD_THREADS	256

/* The command's threads, each with its last syscall entry. */
static struct t_hold_thread {
	pid_t				tid;
	struct __ptrace_syscall_info	entry;
} t_hold_threads[T_HOLD_THREADS];

static struct t_hold_thread *
t_hold_thread(pid_t tid, int add)
{
	size_t	i, free_i = T_HOLD_THREADS;

	for (i = 0; i < T_HOLD_THREADS; i++) {
		if (t_hold_threads[i].tid == tid)
			return (&t_hold_threads[i]);
		if (t_hold_threads[i].tid == 0 && free_i == T_HOLD_THREADS)
			free_i = i;
	}
	if (!add || free_i == T_HOLD_THREADS)
		return (NULL);
	memset(&t_hold_threads[free_i], 0, sizeof t_hold_threads[free_i]);
	t_hold_threads[free_i].tid = tid;
	return (&t_hold_threads[free_i]);
}

/* Wait for SIGUSR1; returns the signal to deliver (STATUS.sig). */
static int
t_hold_wait(const char *status, const sigset_t *usr1)
{
	int	got;

	do
		got = sigwaitinfo(usr1, NULL);
	while (got == -1 && errno == EINTR);
	return (t_hold_signal(status));
}

int
main(int argc, char **argv)
{
	struct __ptrace_syscall_info	 info;
	struct t_hold_thread		*th;
	sigset_t			 usr1, old;
	pid_t				 pid, tid;
	int				 st, cmd, k, nholds, sig, stop, req;
	const char			*status;

	for (cmd = 2; cmd < argc && strcmp(argv[cmd], "--") != 0; cmd++)
		continue;
	nholds = (cmd - 2) / 2;
	if (cmd + 1 >= argc || nholds < 1 || (cmd - 2) % 2 != 0) {
		fprintf(stderr, "usage: t_hold STATUS FD PREFIX [FD PREFIX "
		    "...] -- COMMAND [ARG ...]\n");
		return (2);
	}
	cmd++;
	status = argv[1];
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);

	if ((pid = fork()) == -1) {
		perror("fork");
		return (126);
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1) {
			perror("t_hold: ptrace");
			_exit(77);
		}
		execvp(argv[cmd], argv + cmd);
		perror(argv[cmd]);
		_exit(127);
	}

	/* The stop at exec. */
	if (waitpid(pid, &st, 0) == -1 || !WIFSTOPPED(st)) {
		t_hold_say(status, "ended", 1, t_hold_code(st));
		return (WIFEXITED(st) && WEXITSTATUS(st) == 77 ? 77 : 125);
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)
	    (PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL |
	    PTRACE_O_TRACECLONE)) == -1) {
		perror("t_hold: PTRACE_SETOPTIONS");
		kill(pid, SIGKILL);
		return (77);
	}
	(void)t_hold_thread(pid, 1);

	/*
	 * Every thread traced, stopping at each syscall, until the last
	 * hold; then each is let go at its next stop (a thread still traced
	 * would keep LeakSanitizer from attaching at exit).
	 */
	k = 0;
	tid = pid;
	sig = 0;
	for (;;) {
		req = k < nholds ? PTRACE_SYSCALL : PTRACE_DETACH;
		if (ptrace(req, tid, NULL, (void *)(long)sig) == -1 &&
		    errno != ESRCH) {
			perror("t_hold: ptrace resume");
			kill(pid, SIGKILL);
			return (126);
		}
		sig = 0;
		if ((tid = waitpid(-1, &st, __WALL)) == -1) {
			perror("t_hold: waitpid");
			return (126);
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (tid != pid) {
				if ((th = t_hold_thread(tid, 0)) != NULL)
					th->tid = 0;
				tid = -1;
				continue;
			}
			if (k < nholds) {
				t_hold_say(status, "ended", k + 1,
				    t_hold_code(st));
				return (125);
			}
			return (t_hold_code(st));
		}
		if (!WIFSTOPPED(st))
			continue;
		stop = WSTOPSIG(st);
		th = t_hold_thread(tid, 0);
		if (th == NULL) {
			/* A new thread's first stop. */
			(void)t_hold_thread(tid, 1);
			if (stop == SIGSTOP)
				continue;
		}
		if ((st >> 16) != 0 || stop == SIGTRAP)
			continue;		/* clone, exec: nothing to do */
		if (stop != (SIGTRAP | 0x80)) {
			sig = stop;		/* the command's: delivered */
			continue;
		}
		if (k >= nholds || th == NULL)
			continue;
		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof info,
		    &info) <= 0) {
			perror("t_hold: PTRACE_GET_SYSCALL_INFO");
			kill(pid, SIGKILL);
			return (77);
		}
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
			th->entry = info;
			continue;
		}
		if (info.op != PTRACE_SYSCALL_INFO_EXIT ||
		    th->entry.entry.nr != SYS_write ||
		    (long)th->entry.entry.args[0] !=
		    strtol(argv[2 + 2 * k], NULL, 10) || info.exit.is_error ||
		    !t_hold_match(tid, &th->entry, info.exit.rval,
		    argv[3 + 2 * k]))
			continue;
		/*
		 * Held, right after the write; the other threads stop at
		 * their next syscall meanwhile.  Until SIGUSR1.
		 */
		t_hold_say(status, "held", k + 1, pid);
		sig = t_hold_wait(status, &usr1);
		k++;
	}
}
