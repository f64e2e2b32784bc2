/// Names on the bus: owning one (switchscan's object KWin's script calls back), asking who owns
/// one, and learning when that changes (an extension or a script that goes away, the Shell itself).
extension SessionBus {
    /// Asks to own `name`, never queued behind another owner: true when this connection owns it
    /// now, false when another one does.
    public func requestName(_ name: String, timeoutMilliseconds: Int = SessionBus.defaultTimeoutMilliseconds) -> Result<Bool, SessionBusError> {
        let doNotQueue: UInt32 = 4
        return bus("RequestName", [.string(name), .uint32(doNotQueue)], timeoutMilliseconds).flatMap { reply in
            // 1: the primary owner now; 4: it already was. 3: someone else owns it.
            guard let code = reply.first?.uint32 else { return .failure(.remote(name: "RequestName", message: "an answer without a code")) }
            return .success(code == 1 || code == 4)
        }
    }

    /// Gives `name` up (the answer is not waited for).
    public func releaseName(_ name: String) {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName", [.string(name)])
    }

    /// Who owns `name` now (its unique name), nil when nobody does.
    public func nameOwner(_ name: String, timeoutMilliseconds: Int = SessionBus.defaultTimeoutMilliseconds) -> Result<String?, SessionBusError> {
        switch bus("GetNameOwner", [.string(name)], timeoutMilliseconds) {
        case .success(let reply): return .success(reply.first?.string)
        case .failure(let e) where e.isNoOwner: return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }

    /// Runs `handler` (in `dispatch`) with `name`'s new owner each time it changes (nil: it has
    /// none now), and says who owns it now. The watch starts before the question, so no change
    /// between the two is missed. Returns the token (`unsubscribe`) and the owner now.
    public func watchNameOwner(_ name: String, _ handler: @escaping (String?) -> Void) -> (token: Int, owner: Result<String?, SessionBusError>) {
        let token = subscribe(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                              member: "NameOwnerChanged", arg0: name) { signal in
            // (name, old owner, new owner): "" is no owner.
            guard signal.arguments.count == 3, let owner = signal.arguments[2].string else { return }
            handler(owner.isEmpty ? nil : owner)
        }
        return (token, nameOwner(name))
    }

    private func bus(_ member: String, _ arguments: [BusValue], _ timeout: Int) -> Result<[BusValue], SessionBusError> {
        callAndWait("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member, arguments, timeoutMilliseconds: timeout)
    }
}
