import Glibc

/// A child process started with `posix_spawn` and waited for; what
/// Foundation's `Process` did for the editor, without full Foundation.
///
/// The child starts with default signal handling and nothing blocked (the
/// command may ignore or block signals for its own trap), and inherits the
/// standard input, output and error.
struct ChildProcess {
    let pid: pid_t

    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// How the child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Starts `path` with `arguments` (the first is the program's name) in `environment`.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws(Failure) -> ChildProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, path, nil, &attributes, argv, envp)
        guard status == 0 else { throw Failure(code: status) }
        return ChildProcess(pid: pid)
    }

    /// Waits for the child to end.
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }
}
