/// Something a subject has to do while it owns its delivery token (see ``SubjectCore``).
@usableFromInline
enum SubjectEvent<Output, Failure: Error> {
  /// Deliver a value to every subscriber with demand.
  case value(Output)
  /// Deliver the completion to every subscriber and forget them.
  case completion(Subscribers.Completion<Failure>)
  /// Add a subscriber and hand it its subscription (or the completion, if there was one).
  case attach(SubjectConduit<Output, Failure>)
  /// Remove a cancelled subscriber and release it.
  case detach(SubjectConduit<Output, Failure>)
  /// A subscriber asked for values: a replaying subject may owe it the current value.
  case demand(SubjectConduit<Output, Failure>)
}
