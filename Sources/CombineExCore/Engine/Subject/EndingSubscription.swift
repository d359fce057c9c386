/// A subscription the core hands to a subject (the subscriber of `subscribe(_ subject:)`,
/// `multicast`'s connection) that can tell whether it has ended (cancelled, or its upstream
/// completed), so that the subject stops holding it (``SubjectCore/receiveUpstream(_:)``).
protocol EndingSubscription: AnyObject {
  /// Whether the subscription was cancelled or its upstream completed.
  var hasEnded: Bool { get }
}
