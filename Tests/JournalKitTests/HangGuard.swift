import Testing

extension Trait where Self == TimeLimitTrait {
    /// A limit that turns a test that hangs (a read looping on a lock, say) into a failure
    /// instead of a suite that never ends. It is long because a test's time counts from its
    /// start: the whole suite runs in parallel, and on a machine of two cores a test can wait
    /// minutes for a thread while others run processes of their own.
    static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
