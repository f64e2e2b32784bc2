import SwitchCore

/// The one place a profile argument becomes a `Profile`: a path, or a name from `Profiles/`.
func loadProfile(_ argument: String) throws(InputError) -> Profile {
    try ProfileLibrary.load(argument)
}
