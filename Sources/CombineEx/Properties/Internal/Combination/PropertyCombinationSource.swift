import CombineExCore

/// A property taking part in `combineLatest` or `zip`, with its values converted to the
/// combination's element type (`Any` for tuples of different types, the value type itself for
/// arrays of properties).
struct PropertyCombinationSource<Element> {
  /// Reads the property's current value.
  let currentValue: () -> Element

  /// The property's values: its current value at once, then every change.
  let publisher: AnyPublisher<Element, Never>
}

extension PropertyCombinationSource where Element == Any {
  /// A source whose values are erased to `Any` (tuple combinations cast them back).
  init<P: PropertyProtocol>(_ property: P) {
    currentValue = { property.value }
    publisher = Publishers.Map(upstream: property) { $0 as Any }.eraseToAnyPublisher()
  }
}

extension PropertyCombinationSource {
  /// A source whose values keep their type (array combinations).
  init<P: PropertyProtocol>(same property: P) where P.Output == Element {
    currentValue = { property.value }
    publisher = property.eraseToAnyPublisher()
  }
}

extension Property {
  /// The eager `combineLatest` of `sources`: subscribes to them once, at once, and stores the
  /// latest combination (see ``PropertyCombination`` and ``PropertyRelay``).
  static func combiningLatest<Element>(
    _ sources: [PropertyCombinationSource<Element>], _ makeOutput: @escaping ([Element]) -> Output
  ) -> Property<Output> {
    combining(sources, strategy: .latest, makeOutput)
  }

  /// The eager `zip` of `sources`: subscribes to them once, at once, and stores the latest
  /// tuple (see ``PropertyCombination`` and ``PropertyRelay``).
  static func zipping<Element>(
    _ sources: [PropertyCombinationSource<Element>], _ makeOutput: @escaping ([Element]) -> Output
  ) -> Property<Output> {
    combining(sources, strategy: .zip, makeOutput)
  }

  private static func combining<Element>(
    _ sources: [PropertyCombinationSource<Element>], strategy: PropertyCombinationStrategy,
    _ makeOutput: @escaping ([Element]) -> Output
  ) -> Property<Output> {
    Property(
      deriving: Publishers.Map(
        upstream: PropertyCombination(sources: sources.map(\.publisher), strategy: strategy),
        transform: makeOutput),
      from: sources  // their `currentValue` closures hold the properties
    ) { makeOutput(sources.map { $0.currentValue() }) }
  }
}
