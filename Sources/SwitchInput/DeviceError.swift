import Glibc

/// A device node that could not be opened, read, grabbed or created, with the errno and a
/// sentence a user can act on ("add yourself to the `input` group").
public struct DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Operation: String, Sendable {
        case open, describe, grab, uinput
        /// A device switchscan made itself (`switchscan …`): never read as input.
        case own
    }

    /// The node path (`/dev/input/event7`, `/dev/uinput`).
    public var node: String
    public var operation: Operation
    /// A positive errno value (libevdev returns them negated).
    public var errno: Int32
    /// For a node that cannot be opened for lack of permission: which fix applies
    /// (`DeviceAccess.advice`), in place of the general sentence.
    public var advice: String?

    public init(node: String, operation: Operation, errno: Int32, advice: String? = nil) {
        self.node = node
        self.operation = operation
        self.errno = errno < 0 ? -errno : errno
        self.advice = advice
    }

    /// What went wrong and, where there is one, what to do about it.
    public var reason: String {
        switch (operation, errno) {
        case (.uinput, ENOENT), (.uinput, ENODEV):
            return "/dev/uinput does not exist: load the uinput module (sudo modprobe uinput)"
        case (.uinput, EACCES), (.uinput, EPERM):
            return DeviceError.uinputAdvice
        case (.own, _):
            return "\"\(advice ?? "switchscan …")\" is a device switchscan made; it never reads its own devices (what it writes must not come back as input): name the real device"
        case (_, EACCES), (_, EPERM):
            if let advice { return advice }
            return "permission denied: add yourself to the `input` group (sudo usermod -aG input $USER) and log in again"
        case (.grab, EBUSY):
            return "another program has grabbed it"
        case (_, EMFILE), (_, ENFILE):
            return DeviceError.tooManyOpenFiles(errno)
        case (_, ENOENT):
            return "no such device"
        case (_, ENODEV):
            return "the device is gone"
        case (.describe, _):
            return "not an evdev device (\(String(cString: strerror(errno))))"
        default:
            return String(cString: strerror(errno))
        }
    }

    /// /dev/uinput is there but not writable: what fixes it.
    public static let uinputAdvice = "permission denied on /dev/uinput: install switchscan's udev rule (\(DeviceAccess.ruleName): scripts/install.sh or the .deb), which gives /dev/uinput to the user at the seat, then run `sudo udevadm trigger --sysname-match=uinput` (or log in again); or run as root"

    /// EMFILE/ENFILE, with the limit and what to do about it.
    static func tooManyOpenFiles(_ errno: Int32) -> String {
        if errno == ENFILE { return "too many open files in the system (ENFILE): close other programs or raise fs.file-max" }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return "too many open files (this process may have \(limit.rlim_cur)): raise the limit (ulimit -n, or LimitNOFILE= in a systemd unit)"
    }

    public var description: String {
        switch operation {
        case .uinput: return "cannot create the output device: \(reason)"
        case .grab: return "\(node): cannot grab: \(reason)"
        case .open, .describe, .own: return "\(node): \(reason)"
        }
    }
}
