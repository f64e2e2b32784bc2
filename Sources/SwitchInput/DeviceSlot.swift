import SwitchCore

/// One device of the live loop, open or looked for, and whether it is grabbed now. The grab
/// follows one rule, applied at the start, at every reopen and at every pause change: grabbed
/// when the user asked for it and the engine is not paused (the safety exit gives the switch and
/// the keyboard back to the desktop while paused). Every way out of the loop releases it.
final class DeviceSlot {
    enum Role {
        /// Its switches and touches drive the engine.
        case input
        /// A keyboard read only for the pause chord: never grabbed, its frames never shown.
        case chordOnly
    }

    var node: String
    let identity: DeviceDescription
    let role: Role
    let wantsGrab: Bool
    /// Touch passthrough: while the touchscreen is grabbed, a virtual touchscreen mirrors it.
    let mirrorsTouch: Bool
    var device: EvdevDevice?
    /// The virtual touchscreen (touch passthrough), present exactly while the device is grabbed.
    var mirror: VirtualTouchscreen?
    /// A write to the mirror failed: said once per mirror.
    var mirrorWriteFailed = false
    var assembler = FrameAssembler()
    /// Touch passthrough's fast path for the next frames (`LiveTouchRoute`), made by the engine
    /// before each wait; nil while nothing passes live.
    var route: LiveTouchRoute?
    /// The frame being read while a route is set, held until its `SYN_REPORT` (with each event's
    /// kernel stamp), then forwarded or not, then assembled as usual.
    var liveFrame: [InputEvent] = []
    var liveStamps: [Int64] = []
    /// The last reason a reopen failed, so a lasting failure is reported once, not every retry.
    var reopenFailure: String?

    init(node: String, identity: DeviceDescription, role: Role, wantsGrab: Bool, mirrorsTouch: Bool = false, device: EvdevDevice?) {
        self.node = node
        self.identity = identity
        self.role = role
        self.wantsGrab = wantsGrab
        self.mirrorsTouch = mirrorsTouch
        self.device = device
    }

    /// Grabs or releases the open device as the rule says, and with it the virtual touchscreen
    /// (no touch may reach the desktop twice, nor none at all). A grab that fails (another program
    /// took the device meanwhile) is logged and the device is read anyway, without a mirror.
    func applyGrab(paused: Bool, log: (String) -> Void) {
        guard let device else { return }
        if wantsGrab && !paused {
            if !device.isGrabbed {
                do { try device.grab() } catch { log(error.description) }
            }
            if device.isGrabbed { openMirror(log: log) }
        } else {
            closeMirror(log: log)
            device.ungrab()
        }
    }

    /// Creates the virtual touchscreen for the open, grabbed device (a failure is said, and the
    /// touches are then filtered but go nowhere).
    func openMirror(log: (String) -> Void) {
        guard mirrorsTouch, mirror == nil, let device else { return }
        do {
            let m = try VirtualTouchscreen(mirroring: device.description)
            mirror = m
            mirrorWriteFailed = false
            log("virtual touchscreen \(m.node ?? "?") \"\(m.name)\" mirrors \(device.node)")
        } catch {
            log("\(device.node): no virtual touchscreen: \(error.reason)")
        }
    }

    /// Lifts what is down on the virtual touchscreen and removes it.
    func closeMirror(log: (String) -> Void) {
        guard let m = mirror else { return }
        let node = m.node ?? "?"
        m.close()
        mirror = nil
        log("virtual touchscreen \(node) removed")
    }

    /// The device went away: closed (the kernel drops a grab with the fd), looked for again.
    func close() {
        device = nil
        assembler = FrameAssembler()
        route = nil
        liveFrame.removeAll()
        liveStamps.removeAll()
    }

    func isSameDevice(_ d: DeviceDescription) -> Bool {
        d.name == identity.name && d.bus == identity.bus && d.vendor == identity.vendor && d.product == identity.product
    }
}
