import CombineExCore

/// A `sink` on a fused `map` (``PropertySourceAttachment``), attached to its source's subject
/// core in its place: the core's `SubjectSink` (the sink's two closures) with the map's storage,
/// which replaces each value of the source by the mapped value the map's relay has just stored,
/// as ``MappedSubscriber`` does for any other subscriber.
///
/// Made by the map's attachment, where the source's and the map's types are known, it calls the
/// sink's closure directly, where a ``MappedSubscriber`` goes through its erased downstream's
/// entry (one more call per value), and a `Subscribers.Sink` behind it through its own state
/// (Benchmarks' j6: 95 instructions per subscriber and value against `CurrentValueSubject.map`'s
/// 80). The mapped value is read without the cell's lock for the reason ``MappedSubscriber``
/// gives: the relay stored it in this same delivery of the source's core.
@usableFromInline
struct MappedSink<Input, Output>: Subscriber, CustomStringConvertible {
  @usableFromInline
  typealias Failure = Never

  @usableFromInline
  let sink: SubjectSink<Output, Never>

  /// The map's storage, kept alive by the sink (as a subscriber attached to the storage's core
  /// keeps it), and its cell, which holds the mapped value of the source's latest delivery.
  @usableFromInline
  let storage: PropertyStorage<Output>

  @usableFromInline
  let cell: PropertyCell<Output>

  @inlinable
  init(_ sink: SubjectSink<Output, Never>, storage: PropertyStorage<Output>) {
    self.sink = sink
    self.storage = storage
    cell = storage.cell
  }

  @inlinable
  var combineIdentifier: CombineIdentifier { sink.combineIdentifier }

  @inlinable
  var description: String { sink.description }

  @inlinable
  func receive(subscription: any Subscription) {
    sink.receive(subscription: subscription)
  }

  @inlinable
  func receive(_: Input) -> Subscribers.Demand {
    sink.receive(cell.currentValue)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Never>) {
    sink.receive(completion: completion)
  }
}

// The sink releases its subscription when the stream ends (`SubjectSink` does), so the source's
// core delivers to it in place, without reference counting.
extension MappedSink: SubscriptionReleasing {}
