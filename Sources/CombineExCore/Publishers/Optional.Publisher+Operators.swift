// The operators Combine specializes on `Optional.Publisher`: since the value (or its absence) is
// known up front, they are computed at once and return another `Optional.Publisher` (or `Just`,
// or `Empty`) instead of wrapping the publisher in an operator. Closures run when the operator
// is applied, not when a subscriber arrives. A `nil` publisher stays `nil` for every operator
// except `collect()` (an empty array) and `replaceEmpty(with:)`.

extension Optional.Publisher where Wrapped: Equatable {
  /// Publishes whether the value equals `output`; `nil` if there is no value.
  public func contains(_ output: Output) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(self.output.map { $0 == output })
  }

  /// A single value has no duplicates: this publisher.
  public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
  /// The minimum of at most one value: this publisher.
  public func min() -> Optional<Wrapped>.Publisher { self }

  /// The maximum of at most one value: this publisher.
  public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
  /// Publishes whether the value satisfies `predicate`; `nil` if there is no value.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// Publishes the value in a one-element array, or an empty array if there is none.
  public func collect() -> Optional<[Output]>.Publisher {
    Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
  }

  /// Publishes the transformed value unless there is none or `transform` returns `nil`.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.flatMap(transform))
  }

  /// The minimum of at most one value: this publisher (`areInIncreasingOrder` is not called).
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Optional<Output>.Publisher
  {
    self
  }

  /// The maximum of at most one value: this publisher (`areInIncreasingOrder` is not called).
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Optional<Output>.Publisher
  {
    self
  }

  /// Publishes whether the value satisfies `predicate`; `nil` if there is no value.
  public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// Publishes 1 if there is a value; `nil` (no value) if there is none, as in Combine.
  public func count() -> Optional<Int>.Publisher {
    Optional<Int>.Publisher(output.map { _ in 1 })
  }

  /// Publishes the value if `count` is 0. `count` must not be negative.
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    checkAPI(count >= 0, "dropFirst(_:) needs a count that is not negative")
    return Optional<Output>.Publisher(count == 0 ? output : nil)
  }

  /// Publishes the value unless `predicate` holds for it.
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
  }

  /// The first value: this publisher.
  public func first() -> Optional<Output>.Publisher { self }

  /// Publishes the value if it satisfies `predicate`.
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// The last value: this publisher.
  public func last() -> Optional<Output>.Publisher { self }

  /// Publishes the value if it satisfies `predicate`.
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// Publishes the value if it satisfies `isIncluded`.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
  }

  /// Finishes without publishing the value.
  public func ignoreOutput() -> Empty<Output, Failure> {
    Empty()
  }

  /// Publishes the transformed value, if there is one.
  ///
  /// ```swift
  /// let value: Int? = 21
  /// let doubled: Optional<Int>.Publisher = value.publisher.map { $0 * 2 }
  /// let cancellable = doubled.sink { print($0) }
  /// // Prints: 42
  /// ```
  public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map(transform))
  }

  /// Publishes the value if `index` is 0. `index` must not be negative.
  public func output(at index: Int) -> Optional<Output>.Publisher {
    checkAPI(index >= 0, "output(at:) needs an index that is not negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// Publishes the value if `range` contains the index 0. The range must not start below 0,
  /// and must end below `Int.max - 1` (as in Combine).
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    let bounds = range.relative(to: 0..<Int.max)
    checkAPI(bounds.lowerBound >= 0, "output(in:) needs a range that does not start below 0")
    // Combine checks this bound too (on `Optional.Publisher` only).
    checkAPI(
      bounds.upperBound < Int.max - 1, "output(in:) needs a range that ends below Int.max - 1")
    return Optional<Output>.Publisher(
      bounds.lowerBound == 0 && bounds.upperBound != 0 ? output : nil)
  }

  /// Publishes the value if `maxLength` is positive. `maxLength` must not be negative.
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    checkAPI(maxLength >= 0, "prefix(_:) needs a maximum length that is not negative")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// Publishes the value if it satisfies `predicate`.
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// Publishes `nextPartialResult(initialResult, value)` if there is a value; `nil` (no value)
  /// if there is none, as in Combine.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Optional<T>.Publisher
  {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)` if there is a value.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Optional<T>.Publisher
  {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// A single value has no duplicates: this publisher (`predicate` is not called).
  public func removeDuplicates(by predicate: (Output, Output) -> Bool)
    -> Optional<Output>.Publisher
  {
    self
  }

  /// `Optional.Publisher` cannot fail: this publisher.
  public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

  /// Publishes the value, or `output` if there is none.
  public func replaceEmpty(with output: Output) -> Just<Output> {
    Just(self.output ?? output)
  }

  /// `Optional.Publisher` cannot fail, so there is nothing to retry: this publisher.
  public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}
