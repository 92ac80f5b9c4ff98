/* SPDX-License-Identifier: ISC */
/*
 * Description: hold a command at a phase, for the fault tests.
 *
 *	t_hold STATUS FD PREFIX [FD PREFIX ...] -- COMMAND [ARG ...]
 *
 * Runs COMMAND traced (ptrace, syscalls of its first thread) until it has
 * written to FD something that begins with PREFIX (a phase's own progress
 * line: "scan 1/", "iodepth 1/"; "" for any write), and keeps it stopped
 * there, right after that write.  STATUS then holds one line, "held K PID"
 * (K the hold's number from 1, PID the command's), and t_hold waits for
 * SIGUSR1; the test does what it must while the command cannot move
 * (signals it sends stay pending), then sends SIGUSR1: the command goes
 * on to the next FD PREFIX, or, after the last, is let go untraced, and
 * t_hold exits with its exit status (128 + N when killed by signal N).
 * When the command ends before a hold, STATUS holds "ended K STATUS" and
 * t_hold exits 125.  Exit 77 when the kernel refuses the tracing.
 * Killing t_hold kills the command.  A test never needs to guess from a
 * delay where the command is.
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

/*
 * Let the stopped tracee pid run until it has written something beginning
 * with prefix to fd, and stop it right after.  Returns 0 when stopped
 * there, -1 when it ended first (*st its status), else an exit status for
 * t_hold (77: the kernel refused).
 */
static int
t_hold_until(pid_t pid, long fd, const char *prefix, int *st)
{
	struct __ptrace_syscall_info	info, entry;
	int				sig = 0;

	memset(&entry, 0, sizeof entry);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) ==
		    -1) {
			perror("t_hold: PTRACE_SYSCALL");
			return (126);
		}
		sig = 0;
		if (waitpid(pid, st, 0) == -1) {
			perror("t_hold: waitpid");
			return (126);
		}
		if (!WIFSTOPPED(*st))
			return (-1);
		if (WSTOPSIG(*st) != (SIGTRAP | 0x80)) {
			/* A signal for the command: deliver it. */
			if (WSTOPSIG(*st) != SIGTRAP)
				sig = WSTOPSIG(*st);
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof info,
		    &info) <= 0) {
			perror("t_hold: PTRACE_GET_SYSCALL_INFO");
			return (77);
		}
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY)
			entry = info;
		else if (info.op == PTRACE_SYSCALL_INFO_EXIT &&
		    entry.entry.nr == SYS_write &&
		    (long)entry.entry.args[0] == fd && !info.exit.is_error &&
		    t_hold_match(pid, &entry, info.exit.rval, prefix))
			return (0);
	}
}

int
main(int argc, char **argv)
{
	sigset_t	 usr1, old;
	pid_t		 pid;
	int		 st, got, cmd, k, nholds, rc;
	const char	*status;

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
	    (PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) == -1) {
		perror("t_hold: PTRACE_SETOPTIONS");
		kill(pid, SIGKILL);
		return (77);
	}
	for (k = 0; k < nholds; k++) {
		rc = t_hold_until(pid, strtol(argv[2 + 2 * k], NULL, 10),
		    argv[3 + 2 * k], &st);
		if (rc == -1) {
			t_hold_say(status, "ended", k + 1, t_hold_code(st));
			return (125);
		}
		if (rc != 0) {
			kill(pid, SIGKILL);
			return (rc);
		}
		/* Held, right after the write.  Until SIGUSR1. */
		t_hold_say(status, "held", k + 1, pid);
		do
			got = sigwaitinfo(&usr1, NULL);
		while (got == -1 && errno == EINTR);
	}
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) == -1) {
		perror("t_hold: PTRACE_DETACH");
		kill(pid, SIGKILL);
		return (126);
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR) {
			perror("t_hold: waitpid");
			return (126);
		}
	return (t_hold_code(st));
}
