import Foundation

/// Page faults are a fifth of `tree show`'s time on a 300,000-node dump: the heap grows to
/// 120 MB in 4 KiB pages, each faulted in and cleared one at a time. Before a large tree is
/// built, this reserves heap space ahead and asks for 2 MiB pages there (as glibc's
/// `glibc.malloc.hugetlb=1` tunable would, which can only be set in the environment). Only
/// advice and allocator settings: where the kernel gives no huge pages nothing changes but
/// speed, and the process's results are the same.
enum LargeHeap {
    /// Prepares for about `bytes` of small allocations (a no-op below 64 MiB).
    static func prepare(for bytes: Int) {
        let huge = 2 << 20
        guard bytes >= 64 << 20 else { return }
        let reserve = min(bytes, 1 << 30)
        // Grow the heap in one step and keep its top: no trimming, no separate mappings for
        // the tree's larger arrays (each would be faulted in 4 KiB pages again).
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        // glibc's mallopt(3) (malloc.h, which Swift's Glibc module does not import).
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        let trimThreshold: Int32 = -1, topPad: Int32 = -2, mmapThreshold: Int32 = -3
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(trimThreshold, Int32(min(reserve * 2, Int(Int32.max))))
        _ = mallopt(topPad, Int32(reserve))
        // One allocation from the heap makes it grow by the pad now, so the advice below has
        // memory to apply to (called through its symbol: the optimiser removes a plain
        // malloc-and-free pair).
        guard let mallocSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc") else { return }
        let heapMalloc = unsafeBitCast(mallocSymbol, to: (@convention(c) (Int) -> UnsafeMutableRawPointer?).self)
        guard let probe = heapMalloc(4 << 20) else { return }
        free(probe)
        guard let top = sbrk(0), Int(bitPattern: top) != -1 else { return }
        let end = Int(bitPattern: top) & ~(huge - 1)
        let start = (Int(bitPattern: top) - reserve + huge - 1) & ~(huge - 1)
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    }
}
