import SwitchCore

/// The one place a profile argument becomes a `Profile`: today a path to a JSON profile; the
/// lead extends it (built-in profiles by name).
func loadProfile(_ argument: String) throws(InputError) -> Profile {
    try ProfileDecoder.decode(InputFiles.read(argument), file: argument)
}
