import CombineExCore

/// What the `componentBuilder` of a `Publishers/Aggregate` receives: the way to add the
/// publishers to combine, in order.
///
/// ```swift
/// let combined = Publishers.Aggregate<[Int], Never>(strategy: .combineLatest) { aggregator in
///   aggregator.add(Just(1))
///   aggregator.add(Just(2))
/// } aggregationBlock: { values in values.map { $0 as! Int } }
/// let cancellable = combined.sink { print($0) }
/// // Prints: [1, 2]
/// ```
///
/// The builder runs once per subscription, before the subscriber receives its subscription;
/// adding a publisher after the builder has returned is an API violation.
public protocol AggregatePublisherAggregator<AggregateFailure> {
  /// The failure type every added publisher shares.
  associatedtype AggregateFailure: Error

  /// Adds `publisher` as the next input: its values take the next position of the array the
  /// aggregation block receives.
  func add(_ publisher: some Publisher<some Any, AggregateFailure>)
}
