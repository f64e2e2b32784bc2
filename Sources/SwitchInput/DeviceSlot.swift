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
    var device: EvdevDevice?
    var assembler = FrameAssembler()
    /// The last reason a reopen failed, so a lasting failure is reported once, not every retry.
    var reopenFailure: String?

    init(node: String, identity: DeviceDescription, role: Role, wantsGrab: Bool, device: EvdevDevice?) {
        self.node = node
        self.identity = identity
        self.role = role
        self.wantsGrab = wantsGrab
        self.device = device
    }

    /// Grabs or releases the open device as the rule says. A grab that fails (another program
    /// took the device meanwhile) is logged and the device is read anyway.
    func applyGrab(paused: Bool, log: (String) -> Void) {
        guard let device else { return }
        if wantsGrab && !paused {
            guard !device.isGrabbed else { return }
            do { try device.grab() } catch { log(error.description) }
        } else {
            device.ungrab()
        }
    }

    /// The device went away: closed (the kernel drops a grab with the fd), looked for again.
    func close() {
        device = nil
        assembler = FrameAssembler()
    }

    func isSameDevice(_ d: DeviceDescription) -> Bool {
        d.name == identity.name && d.bus == identity.bus && d.vendor == identity.vendor && d.product == identity.product
    }
}
