internal import CWayland
import Glibc

/// A wl_shm buffer the compositor reads our pixels from: ARGB8888 (cairo's ARGB32, premultiplied,
/// native byte order) in anonymous shared memory. `busy` from the commit that attaches it until
/// the compositor's wl_buffer.release: we never draw into a buffer the compositor may still read.
final class ShmBuffer {
    let buffer: OpaquePointer
    let pixels: UnsafeMutableRawPointer
    let width: Int, height: Int, stride: Int
    private let size: Int
    var busy = false
    /// Told when the compositor released it (a redraw that found no free buffer waits for this).
    var released: () -> Void = {}
    /// Where this buffer holds drawn pixels (device pixels), cleared before the next drawing.
    var drawn: [DeviceBox] = []

    /// nil when the memory cannot be had (no memfd, no space): the overlay then draws nothing.
    init?(shm: OpaquePointer, width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        stride = width * 4
        size = stride * height
        let fd = cwl_memfd("switchscan-overlay")
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0, let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              map != MAP_FAILED else { return nil }
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)),
              let b = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue) else {
            munmap(map, size)
            return nil
        }
        wl_shm_pool_destroy(pool)  // the buffer keeps the memory
        pixels = map
        buffer = b
        self.width = width
        self.height = height
        wl_buffer_add_listener(b, bufferListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        wl_buffer_destroy(buffer)
        munmap(pixels, size)
    }

    fileprivate func release() {
        busy = false
        released()
    }
}

/// A rectangle in a buffer's device pixels.
struct DeviceBox: Equatable {
    var x: Int, y: Int, width: Int, height: Int
}

/// Two buffers of a surface, drawn in turn (one shown, one drawn): a third is never made; when
/// both are busy the caller waits for a release.
final class ShmSwapchain {
    private let shm: OpaquePointer
    private var buffers: [ShmBuffer] = []
    var released: () -> Void = {}

    init(shm: OpaquePointer) { self.shm = shm }

    /// A free buffer of this size (made or remade as needed); nil while both are busy.
    func next(width: Int, height: Int) -> ShmBuffer? {
        buffers.removeAll { !$0.busy && ($0.width != width || $0.height != height) }
        if let free = buffers.first(where: { !$0.busy }) { return free }
        guard buffers.count < 2, let b = ShmBuffer(shm: shm, width: width, height: height) else { return nil }
        b.released = { [unowned self] in self.released() }
        buffers.append(b)
        return b
    }
}

nonisolated(unsafe) private let bufferListener: UnsafeMutablePointer<wl_buffer_listener> = {
    let p = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
    p.initialize(to: wl_buffer_listener(release: { data, _ in
        Unmanaged<ShmBuffer>.fromOpaque(data!).takeUnretainedValue().release()
    }))
    return p
}()
