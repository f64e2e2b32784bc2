import SwitchCore
import Testing

/// The engine's code check without hashing answers what the description answers, for every type
/// and code, including those beyond the kernel's ranges (answered from the description itself).
@Suite("Event code bitmap")
struct EventCodeBitmapTests {
    @Test func answersLikeTheDescriptionForEveryTypeAndCode() {
        let d = DeviceDescription(name: "panel", codes: [
            EventCodes.EV_KEY: [EventCodes.BTN_TOUCH, 0, 767, 30],
            EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_MT_POSITION_X, 63],
            0x1f: [5],
            40: [1],             // a type beyond EV_MAX: from the description
            EventCodes.EV_MSC: [800],  // a code beyond KEY_MAX: from the description
        ])
        let bitmap = EventCodeBitmap(d)
        for type: UInt16 in 0..<48 {
            for code: UInt16 in 0..<900 {
                #expect(bitmap.has(type: type, code: code) == d.has(type: type, code: code), "type \(type) code \(code)")
            }
        }
    }

    @Test func anEmptyDescriptionHasNothing() {
        let bitmap = EventCodeBitmap(DeviceDescription(name: "nothing"))
        #expect(!bitmap.has(type: EventCodes.EV_KEY, code: 30))
        #expect(!bitmap.has(type: EventCodes.EV_SYN, code: 0))
    }
}
