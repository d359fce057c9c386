import CombineExCore

/// How a fused `map` attaches its subscribers to its source's subject core, in place of its own
/// (``MappedSubscriber``): made by `map` where the source's type is known, kept by the map's
/// ``PropertyStorage``.
///
/// A map is fused when its source delivers to its subscribers through one subject core, in the
/// order they attached, one delivery at a time: a ``MutableProperty``, or a ``Property`` whose
/// subscribers attach to its storage (an eager property, fused or not). The map's relay is then
/// attached to that core first (when the map is made), so in each delivery it stores the mapped
/// value before any subscriber of the map reads it. Any other source (a constant, a property
/// behind an erased publisher, a user's type) is not fused: the map's subscribers attach to its
/// own core, which its relay feeds.
///
/// The entries capture the source's core or storage, never the source object: a subscriber of the
/// map keeps the stream going, not the properties it was made from (as an unfused one does).
@usableFromInline
struct PropertySourceAttachment<Output> {
  /// Attaches a subscriber that releases its subscription when the stream ends.
  @usableFromInline
  let attachReleasing: (MappedDownstream<Output>) -> Void

  /// Attaches any other subscriber.
  @usableFromInline
  let attachRetaining: (MappedDownstream<Output>) -> Void

  /// Attaches a `sink` of the map (``MappedSink``), which holds the map's storage.
  @usableFromInline
  let attachSink: (SubjectSink<Output, Never>, PropertyStorage<Output>) -> Void

  /// Whether the calling thread is delivering a value of the core the subscribers attach to. A
  /// subscriber that arrives then (from inside a subscriber of the source) attaches to the map's
  /// own core instead: attached to the source's core during its delivery, it would replay the
  /// mapped value before the relay stored this delivery's, and would not receive this delivery.
  @usableFromInline
  let isDelivering: () -> Bool

  /// The attachment to `source`, or `nil` if a map of it cannot be fused.
  @inlinable
  init?<Source: PropertyProtocol>(fusing source: Source) {
    typealias Input = Source.Output
    if let property = source as? MutableProperty<Input> {
      let core = property.core
      isDelivering = { core.isHeldByCurrentThread }
      attachReleasing = { downstream in
        core.perform(
          core.attachEvent(
            for: MappedSubscriber<Input, Output, ReleasingDownstream>(downstream: downstream)))
      }
      attachRetaining = { downstream in
        core.perform(
          core.attachEvent(
            for: MappedSubscriber<Input, Output, RetainingDownstream>(downstream: downstream)))
      }
      attachSink = { sink, storage in
        core.perform(core.attachEvent(for: MappedSink<Input, Output>(sink, storage: storage)))
      }
    } else if let property = source as? Property<Input>, let sourceStorage = property.storage {
      // The core a subscriber attached through `sourceStorage` ends up in: its source's, if it
      // is fused itself, otherwise its own.
      isDelivering = {
        sourceStorage.sourceAttachment?.isDelivering()
          ?? sourceStorage.cell.core.isHeldByCurrentThread
      }
      attachReleasing = { downstream in
        sourceStorage.receive(
          subscriber: MappedSubscriber<Input, Output, ReleasingDownstream>(downstream: downstream))
      }
      attachRetaining = { downstream in
        sourceStorage.receive(
          subscriber: MappedSubscriber<Input, Output, RetainingDownstream>(downstream: downstream))
      }
      attachSink = { sink, storage in
        sourceStorage.receive(subscriber: MappedSink<Input, Output>(sink, storage: storage))
      }
    } else {
      return nil
    }
  }
}
