import CombineExCore

/// The ``AggregatePublisherAggregator`` an aggregate's `componentBuilder` receives: it records
/// each added publisher as a way to subscribe it to the subscription's storage, at its
/// position.
///
/// Used by one subscription, on the subscribing thread, while its builder runs.
@usableFromInline
final class AggregateCollector<Values: AggregateValues<Any>, Downstream: Subscriber>:
  AggregatePublisherAggregator
where Downstream.Input == [Any] {
  @usableFromInline
  typealias AggregateFailure = Downstream.Failure
  @usableFromInline
  typealias Storage = CombiningStorage<Values, Downstream>

  /// Subscribes one input to the storage, at the given position.
  @usableFromInline
  typealias Input = (Storage, Int) -> Void

  @usableFromInline
  var inputs: [Input] = []
  @usableFromInline
  var isClosed = false

  @inlinable
  init() {}

  // Not inlinable: the builder calls it through the existential, which reaches this generic
  // body whatever the caller's module; the inputs it makes are specialized by `subscribe`.
  @usableFromInline
  func add(_ publisher: some Publisher<some Any, AggregateFailure>) {
    if isClosed {
      apiViolation(
        "a publisher was added to a Publishers.Aggregate after its componentBuilder returned. "
          + "Add every input inside the builder.")
    }
    inputs.append { storage, index in
      storage.subscribe(publisher, at: index) { values, value in values.store(value, at: index) }
    }
  }

  /// Ends the building; returns the inputs, in the order they were added.
  @inlinable
  func close() -> [Input] {
    isClosed = true
    defer { inputs = [] }
    return inputs
  }
}
