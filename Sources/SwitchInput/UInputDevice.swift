internal import CEvdev
import Glibc
import SwitchCore

/// One uinput device made from a libevdev template (what `--inject`'s devices share): created at
/// once, so a missing /dev/uinput fails before anything runs; written a frame at a time.
final class UInputDevice {
    private let template: OpaquePointer
    private let uinput: OpaquePointer

    /// `configure` enables the device's events on the template (name and ids are set here: by
    /// default a virtual bus, vendor 0x5353 "SS"; a mirror passes its source's).
    init(name: String, bus: UInt16 = UInt16(BUS_VIRTUAL), vendor: UInt16 = 0x5353, product: UInt16, version: UInt16 = 0,
         configure: (OpaquePointer) -> Void) throws(DeviceError) {
        guard let dev = libevdev_new() else { throw DeviceError(node: "/dev/uinput", operation: .uinput, errno: ENOMEM) }
        libevdev_set_name(dev, name)
        libevdev_set_id_bustype(dev, Int32(bus))
        libevdev_set_id_vendor(dev, Int32(vendor))
        libevdev_set_id_product(dev, Int32(product))
        if version != 0 { libevdev_set_id_version(dev, Int32(version)) }
        configure(dev)
        var ui: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &ui)
        guard rc == 0, let ui else {
            libevdev_free(dev)
            throw DeviceError(node: "/dev/uinput", operation: .uinput, errno: rc)
        }
        template = dev
        uinput = ui
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(template)
    }

    var node: String? { libevdev_uinput_get_devnode(uinput).map { String(cString: $0) } }

    /// The uinput descriptor, for a frame written with one write(2) (`VirtualTouchscreen`).
    var fileDescriptor: Int32 { libevdev_uinput_get_fd(uinput) }

    /// One frame: the events, then SYN_REPORT; the message of a failed write.
    func write(_ events: [(type: UInt16, code: UInt16, value: Int32)]) -> String? {
        for e in events + [(UInt16(EV_SYN), UInt16(SYN_REPORT), 0)] {
            let rc = libevdev_uinput_write_event(uinput, UInt32(e.type), UInt32(e.code), e.value)
            if rc != 0 { return "cannot write to the output device: \(String(cString: strerror(-rc)))" }
        }
        return nil
    }
}
