/// An event that reaches a ``MergeStorage`` from outside: through the `Subscriber` and
/// `Subscription` witnesses of its inputs, its upstream's subscriber and itself.
///
/// Those witnesses are called through existentials and protocol witness tables (an input's
/// subscription calls `receive` on its subscriber, a downstream calls `request` on `any
/// Subscription`), so they run as unspecialized generic code, where every generic type they
/// touch (the machine, its actions, `Optional` of the downstream, tuples of them) is looked up
/// in the runtime's metadata cache: about 22,000 instructions per input of a merge (issue 30).
/// So each witness only hands the event to ``MergeStorage/entry``, a closure made in the
/// storage's `@inlinable` initializer, that is, specialized where the subscriber's types are
/// known; the work runs there. (Values are not among them: they go to the storage directly, as a
/// hop per value cost the per-value paths 4% to 12%; nor are completions: they go to
/// ``MergeStorage/completionEntry``, typed.) A subscription (an existential) travels as a
/// pointer to it, typed again inside the specialized closure: the event itself stays a trivial
/// value, copied without retains.
@usableFromInline
enum MergeEntry {
  /// The downstream asked for more values.
  case request(Subscribers.Demand)
  /// The downstream cancelled.
  case cancel
  /// Input `id`'s subscription arrived (the payload points to an `any Subscription`).
  case subscription(input: Int)
  /// The upstream's subscription arrived (flatMap, switchToLatest; the payload points to an
  /// `any Subscription`).
  case upstreamSubscription
  /// The storage's deinitializer runs: its `fields` are destroyed (see
  /// ``MergeStorage/fields``).
  case destroyFields
}
