/// The version of switchscan: the one place it is written. `switchscan --version` prints it, and
/// `scripts/build-deb.sh` and `scripts/install.sh` ask the built binary for it.
enum SwitchScanVersion {
    static let string = "0.1.0"
}
