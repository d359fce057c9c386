/// Which subject a ``SubjectCore`` runs: everything the core does differently for one subject
/// or another follows from this one value (what it replays, whether re-entrant sends nest, what
/// its subscriptions call themselves and show in a mirror).
///
/// The cases are ordered so that the questions asked on the delivery paths compile to one
/// comparison of the case's tag: the kinds that replay come last, and the one that does not nest
/// re-entrant deliveries sits between the current-value kinds and the replay buffer.
@usableFromInline
package enum SubjectKind: Sendable {
  /// ``PassthroughSubject``: replays nothing.
  case passthrough
  /// ``ObservableObjectPublisher``'s subject: a passthrough subject whose subscriptions call
  /// themselves "ObservableObjectPublisher" and whose mirror shows the subscriber only, as
  /// Combine's do.
  case observableObjectPublisher
  /// ``CurrentValueSubject``: replays the current value.
  case currentValue
  /// `@Published`'s subject: a current-value subject whose subscriptions call themselves
  /// "PublishedSubject", as Combine's do.
  case published
  /// CombineEx's `MutableProperty` (and the storage of a property that follows a publisher):
  /// replays the current value, and delivers a value sent from inside a delivery after it
  /// rather than nested, so that every subscriber sees the same order. Its subscriptions call
  /// themselves "CurrentValueSubject", as they did before the kinds were named.
  case property
  /// CombineEx's `ReplaySubject`: replays the latest values kept in a ``SubjectReplayBuffer``.
  case replay

  /// What the subject's subscriptions' `description` says, as Combine's.
  @inlinable
  var name: String {
    switch self {
    case .passthrough: return "PassthroughSubject"
    case .observableObjectPublisher: return "ObservableObjectPublisher"
    case .currentValue, .property: return "CurrentValueSubject"
    case .published: return "PublishedSubject"
    case .replay: return "ReplaySubject"
    }
  }

  /// Whether new subscribers (and subscribers that missed values for lack of demand) receive
  /// the current value on demand, as ``CurrentValueSubject``'s do.
  @inlinable
  var replaysCurrentValue: Bool {
    switch self {
    case .currentValue, .published, .property: return true
    case .passthrough, .observableObjectPublisher, .replay: return false
    }
  }

  /// Whether new subscribers (and subscribers that missed values for lack of demand) receive
  /// the kept values they have not received, from the core's ``SubjectCore/replayBuffer``.
  @inlinable
  var replaysLatestValues: Bool { self == .replay }

  /// Whether the subject replays anything: a subscriber without demand is then *behind* rather
  /// than simply missing values. Such a subject also requests unlimited values from its
  /// upstreams at once (a ``PassthroughSubject`` waits for its first downstream demand).
  @inlinable
  var replays: Bool {
    switch self {
    case .passthrough, .observableObjectPublisher: return false
    case .currentValue, .published, .property, .replay: return true
    }
  }

  /// Whether a value or completion sent from inside a delivery (on the delivering thread) is
  /// delivered at once, nested (subjects, as in Combine), or after the current delivery
  /// (properties, so that every subscriber sees the same order).
  @inlinable
  var nestsReentrantDeliveries: Bool { self != .property }

  /// Whether its subscriptions' mirrors show the subject and the demand (all but an
  /// `ObservableObjectPublisher`'s, whose mirror in Combine shows the subscriber only).
  @inlinable
  var mirrorShowsSubject: Bool { self != .observableObjectPublisher }
}
