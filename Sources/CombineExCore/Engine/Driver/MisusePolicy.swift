/// What a single-upstream operator does with the calls that come out of the usual order: an
/// upstream value or completion, a downstream request or cancel, before the upstream's
/// subscription has arrived; and a request for zero values. Combine's operators differ here (the
/// way each is built shows through), and each ``OperatorLogic`` picks, as its
/// ``OperatorLogic/misusePolicy``, the preset of the Combine operators it matches, or the rule it
/// keeps where Combine breaks one (Docs/Core.md, "What differs from Apple's Combine").
///
/// Only a caller that reached the driver some other way can request or cancel before the
/// upstream's subscription (the downstream gets the driver with that subscription, unless the
/// operator starts with ``OperatorDriver/start(downstreamFirst:)``); an upstream that sends
/// before its subscription misbehaves. OpenCombine's test suite, run against the core
/// (`Tools/opencombine-suite.sh`), checks every operator's choice (its
/// `…BeforeSubscription` tests).
@usableFromInline
package struct MisusePolicy {
  /// Whether a cancel before the upstream's subscription ends the operator (the subscription
  /// is cancelled when it arrives), or is only noted: the subscription is taken when it
  /// arrives and handed to the downstream, as if the cancel had not come (the logic hears of
  /// the cancel through ``OperatorLogic/cancelledBeforeSubscription()``).
  @usableFromInline
  package let earlyCancelEnds: Bool

  /// Whether an upstream value or completion, or a downstream request, that comes before the
  /// upstream's subscription is an API violation (a trap). Otherwise they are ignored, except a
  /// completion when ``earlyCompletionEnds``.
  @usableFromInline
  package let trapsEarlyEvents: Bool

  /// Whether an upstream completion before the upstream's subscription ends the operator (the
  /// logic decides how, as for any completion, and the subscription is cancelled if it comes
  /// later).
  @usableFromInline
  package let earlyCompletionEnds: Bool

  /// Whether a downstream request of zero (`.none`) is an API violation (a trap); otherwise it
  /// is passed on, or ignored where demand is tracked.
  @usableFromInline
  package let zeroDemandTraps: Bool

  @inlinable
  init(
    earlyCancelEnds: Bool, trapsEarlyEvents: Bool, earlyCompletionEnds: Bool,
    zeroDemandTraps: Bool
  ) {
    // A trapping operator ends at a cancel before its subscription, as Combine's do: they
    // cancel the subscription when it arrives.
    assert(!trapsEarlyEvents || (earlyCancelEnds && !earlyCompletionEnds))
    self.earlyCancelEnds = earlyCancelEnds
    self.trapsEarlyEvents = trapsEarlyEvents
    self.earlyCompletionEnds = earlyCompletionEnds
    self.zeroDemandTraps = zeroDemandTraps
  }

  // Presets are computed, not stored: a stored static is initialized lazily, and every read of
  // it would check that it was; these fold into constants in the specialized driver.

  /// The rules: early upstream events and requests are ignored, and an early cancel ends the
  /// operator (rule 3: a cancel reaches the upstream). Combine's reducing operators (`reduce`,
  /// `count`, `collect()`, `min`, `contains`, `first`, `last` and the rest), `replaceError`,
  /// `replaceEmpty` and `dropFirst` ignore the early cancel and then request from (or leave
  /// alone) the subscription that arrives: Docs/Core.md lists the difference (rule 3).
  /// The default.
  @inlinable
  package static var standard: Self {
    Self(
      earlyCancelEnds: true, trapsEarlyEvents: false, earlyCompletionEnds: false,
      zeroDemandTraps: false)
  }

  /// Combine's filtering operators (`tryFilter`, `tryCompactMap`, `removeDuplicates`,
  /// `prefix(while:)` and their `try` variants): an early upstream value or completion, or an
  /// early request, stops the program; an early cancel ends the operator (Combine cancels the
  /// subscription that arrives).
  @inlinable
  package static var trapsEarlyEvents: Self {
    Self(
      earlyCancelEnds: true, trapsEarlyEvents: true, earlyCompletionEnds: false,
      zeroDemandTraps: false)
  }

  /// Combine's `tryMap`, `tryScan`, `output(in:)`, `subscribe(on:)` and `drop(while:)`: an
  /// early cancel is only noted, and the subscription that arrives is handed to the downstream
  /// untouched; early upstream events and requests are ignored. (With
  /// ``endingOnEarlyCompletion``: `scan`, `print`, `handleEvents`, `encode`, `decode`,
  /// `collect(_:)`.)
  @inlinable
  package static var notesEarlyCancel: Self {
    Self(
      earlyCancelEnds: false, trapsEarlyEvents: false, earlyCompletionEnds: false,
      zeroDemandTraps: false)
  }

  /// The same, and an early upstream completion ends the operator, as it does in Combine for
  /// `scan`, `print`, `handleEvents`, `encode`, `decode`, `collect(_:)` and `dropFirst`: the
  /// downstream receives the ending at once, without a subscription if it has none yet, as in
  /// Combine.
  @inlinable
  package var endingOnEarlyCompletion: Self {
    Self(
      earlyCancelEnds: earlyCancelEnds, trapsEarlyEvents: trapsEarlyEvents,
      earlyCompletionEnds: true, zeroDemandTraps: zeroDemandTraps)
  }

  /// The same, and a request of zero stops the program, as it does in Combine for
  /// `dropFirst`, `drop(while:)`, `collect(_:)` and `replaceEmpty`.
  @inlinable
  package var trappingZeroDemand: Self {
    Self(
      earlyCancelEnds: earlyCancelEnds, trapsEarlyEvents: trapsEarlyEvents,
      earlyCompletionEnds: earlyCompletionEnds, zeroDemandTraps: true)
  }
}
