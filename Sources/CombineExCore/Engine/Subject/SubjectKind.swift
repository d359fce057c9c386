/// Which subject a ``SubjectCore`` runs: everything the core does differently for one subject
/// or another follows from this one value (what it replays, whether re-entrant sends nest, what
/// its subscriptions call themselves and show in a mirror). The kinds are the presets below.
///
/// A set of bits rather than an enum: each question the delivery paths ask (does it replay the
/// current value? does it nest re-entrant sends?) is then one bit test, as the stored flags it
/// replaces were. With an enum, the compiler answered them by a range check of the case's tag:
/// two instructions more per `PassthroughSubject` send (Benchmarks gate, c1 and c2).
@usableFromInline
package struct SubjectKind: Equatable, Sendable {
  @usableFromInline
  let bits: UInt8

  @inlinable
  init(bits: UInt8) { self.bits = bits }

  /// Replays the current value.
  @usableFromInline
  static var replaysCurrentValueBit: UInt8 { 1 }
  /// Replays the latest values kept in a ``SubjectReplayBuffer``.
  @usableFromInline
  static var replaysLatestValuesBit: UInt8 { 2 }
  /// Delivers a re-entrant send after the current delivery instead of nesting it.
  @usableFromInline
  static var defersReentrantDeliveriesBit: UInt8 { 4 }
  /// Its subscriptions are an `ObservableObjectPublisher`'s.
  @usableFromInline
  static var observableObjectPublisherBit: UInt8 { 8 }
  /// Its subscriptions are `@Published`'s.
  @usableFromInline
  static var publishedBit: UInt8 { 16 }

  /// ``PassthroughSubject``: replays nothing.
  @inlinable
  package static var passthrough: SubjectKind { SubjectKind(bits: 0) }

  /// ``ObservableObjectPublisher``'s subject: a passthrough subject whose subscriptions call
  /// themselves "ObservableObjectPublisher" and whose mirror shows the subscriber only, as
  /// Combine's do.
  @inlinable
  package static var observableObjectPublisher: SubjectKind {
    SubjectKind(bits: observableObjectPublisherBit)
  }

  /// ``CurrentValueSubject``: replays the current value.
  @inlinable
  package static var currentValue: SubjectKind { SubjectKind(bits: replaysCurrentValueBit) }

  /// `@Published`'s subject: a current-value subject whose subscriptions call themselves
  /// "PublishedSubject", as Combine's do.
  @inlinable
  package static var published: SubjectKind {
    SubjectKind(bits: replaysCurrentValueBit | publishedBit)
  }

  /// CombineEx's `MutableProperty` (and the storage of a property that follows a publisher):
  /// replays the current value, and delivers a value sent from inside a delivery after it
  /// rather than nested, so that every subscriber sees the same order. Its subscriptions call
  /// themselves "CurrentValueSubject", as they did before the kinds were named.
  @inlinable
  package static var property: SubjectKind {
    SubjectKind(bits: replaysCurrentValueBit | defersReentrantDeliveriesBit)
  }

  /// CombineEx's `ReplaySubject`: replays the latest values kept in a ``SubjectReplayBuffer``.
  @inlinable
  package static var replay: SubjectKind { SubjectKind(bits: replaysLatestValuesBit) }

  /// What the subject's subscriptions' `description` says, as Combine's.
  @inlinable
  var name: String {
    if bits & Self.publishedBit != 0 { return "PublishedSubject" }
    if bits & Self.observableObjectPublisherBit != 0 { return "ObservableObjectPublisher" }
    if bits & Self.replaysLatestValuesBit != 0 { return "ReplaySubject" }
    if bits & Self.replaysCurrentValueBit != 0 { return "CurrentValueSubject" }
    return "PassthroughSubject"
  }

  /// Whether new subscribers (and subscribers that missed values for lack of demand) receive
  /// the current value on demand, as ``CurrentValueSubject``'s do.
  @inlinable
  var replaysCurrentValue: Bool { bits & Self.replaysCurrentValueBit != 0 }

  /// Whether new subscribers (and subscribers that missed values for lack of demand) receive
  /// the kept values they have not received, from the core's ``SubjectCore/replayBuffer``.
  @inlinable
  var replaysLatestValues: Bool { bits & Self.replaysLatestValuesBit != 0 }

  /// Whether the subject replays anything: a subscriber without demand is then *behind* rather
  /// than simply missing values. Such a subject also requests unlimited values from its
  /// upstreams at once (a ``PassthroughSubject`` waits for its first downstream demand).
  @inlinable
  var replays: Bool {
    bits & (Self.replaysCurrentValueBit | Self.replaysLatestValuesBit) != 0
  }

  /// Whether a value or completion sent from inside a delivery (on the delivering thread) is
  /// delivered at once, nested (subjects, as in Combine), or after the current delivery
  /// (properties, so that every subscriber sees the same order).
  @inlinable
  var nestsReentrantDeliveries: Bool { bits & Self.defersReentrantDeliveriesBit == 0 }

  /// Whether its subscriptions' mirrors show the subject and the demand (all but an
  /// `ObservableObjectPublisher`'s, whose mirror in Combine shows the subscriber only).
  @inlinable
  var mirrorShowsSubject: Bool { bits & Self.observableObjectPublisherBit == 0 }
}

extension SubjectKind: CustomStringConvertible {
  /// The kind's subject, for messages: "PassthroughSubject", "MutableProperty", ...
  @usableFromInline
  package var description: String {
    self == .property ? "MutableProperty" : name
  }
}
