/// Something a subject has to do while it owns its delivery token (see ``SubjectCore``).
@usableFromInline
package enum SubjectEvent<Output, Failure: Error> {
  /// Deliver a value to every subscriber with demand.
  case value(Output)
  /// Deliver the completion to every subscriber.
  case completion(Subscribers.Completion<Failure>)
  /// Add a subscriber and hand it its subscription (or the completion, if there was one).
  /// `start` hands the subscription over; like ``SubjectConduit/send``, it is a function
  /// created where the subscriber's type is known, so it runs specialized code.
  case attach(
    SubjectConduit<Output, Failure>,
    start: (SubjectConduit<Output, Failure>) -> Void)
  /// A subscriber cancelled (it is already marked terminated): remove it from the list.
  case detach(SubjectConduit<Output, Failure>)
  /// A subscriber asked for values: a replaying subject may owe it the current value.
  case demand(SubjectConduit<Output, Failure>)
}

extension SubjectEvent {
  /// Whether the event delivers a value or a completion (as opposed to managing subscribers).
  @inlinable
  var isDelivery: Bool {
    switch self {
    case .value, .completion: return true
    case .attach, .detach, .demand: return false
    }
  }

  /// Whether a thread that finds another thread holding the token waits for it (values,
  /// completions, attaches: Combine's synchronous contract) rather than handing the event over
  /// to the holder (cancels and requests, which must never wait; see ``SubjectCore``).
  @inlinable
  var waitsForToken: Bool {
    switch self {
    case .value, .completion, .attach: return true
    case .detach, .demand: return false
    }
  }
}
