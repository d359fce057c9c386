// The operators Combine specializes on `Just`: since the one value is known up front, they are
// computed at once and return another simple publisher (`Just`, `Optional.Publisher`,
// `Result.Publisher`, `Empty` or `Publishers.Sequence`) instead of wrapping the `Just` in an
// operator. Closures run when the operator is applied, not when a subscriber arrives.

extension Just where Output: Comparable {
  /// The minimum of a single value: this publisher.
  @inlinable
  public func min() -> Just<Output> { self }

  /// The maximum of a single value: this publisher.
  @inlinable
  public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
  /// Publishes whether the value equals `output`.
  @inlinable
  public func contains(_ output: Output) -> Just<Bool> {
    Just<Bool>(self.output == output)
  }

  /// A single value has no duplicates: this publisher.
  @inlinable
  public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
  /// Publishes whether the value satisfies `predicate`.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Publishes whether the value satisfies `predicate`, or fails with the error it throws.
  @inlinable
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// Publishes whether the value satisfies `predicate`.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Publishes whether the value satisfies `predicate`, or fails with the error it throws.
  @inlinable
  public func tryContains(where predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// Publishes the value in a one-element array.
  @inlinable
  public func collect() -> Just<[Output]> {
    Just<[Output]>([output])
  }

  /// The minimum of a single value: this publisher (`areInIncreasingOrder` is not called).
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// The maximum of a single value: this publisher (`areInIncreasingOrder` is not called).
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// Publishes 1, the number of values.
  @inlinable
  public func count() -> Just<Int> {
    Just<Int>(1)
  }

  /// Publishes the value if `count` is 0, otherwise nothing. `count` must not be negative.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    checkAPI(count >= 0, "dropFirst(_:) needs a count that is not negative")
    return Optional<Output>.Publisher(count == 0 ? output : nil)
  }

  /// Publishes the value unless `predicate` holds for it.
  @inlinable
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? nil : output)
  }

  /// The first value: this publisher.
  @inlinable
  public func first() -> Just<Output> { self }

  /// Publishes the value if it satisfies `predicate`.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// The last value: this publisher.
  @inlinable
  public func last() -> Just<Output> { self }

  /// Publishes the value if it satisfies `predicate`.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// Finishes without publishing the value.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Never> {
    Empty()
  }

  /// Publishes the transformed value.
  ///
  /// ```swift
  /// let doubled: Just<Int> = Just(21).map { $0 * 2 }
  /// let cancellable = doubled.sink { print($0) }
  /// // Prints: 42
  /// ```
  @inlinable
  public func map<T>(_ transform: (Output) -> T) -> Just<T> {
    Just<T>(transform(output))
  }

  /// Publishes the transformed value, or fails with the error `transform` throws.
  @inlinable
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try transform(output) })
  }

  /// Publishes the transformed value unless `transform` returns `nil`.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(transform(output))
  }

  /// Publishes the value if it satisfies `isIncluded`.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(isIncluded(output) ? output : nil)
  }

  /// Publishes the value if `index` is 0. `index` must not be negative.
  @inlinable
  public func output(at index: Int) -> Optional<Output>.Publisher {
    checkAPI(index >= 0, "output(at:) needs an index that is not negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// Publishes the value if `range` starts at 0.
  ///
  /// Like Combine, only the lower bound is checked, so an empty range starting at 0 still
  /// publishes the value.
  @inlinable
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    let bounds = range.relative(to: 0..<Int.max)
    return Optional<Output>.Publisher(bounds.lowerBound == 0 ? output : nil)
  }

  /// Publishes the value if `maxLength` is positive. `maxLength` must not be negative.
  @inlinable
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    checkAPI(maxLength >= 0, "prefix(_:) needs a maximum length that is not negative")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// Publishes the value if it satisfies `predicate`.
  @inlinable
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// Publishes the value with a failure type that is never used.
  @inlinable
  public func setFailureType<Failure: Error>(to failureType: Failure.Type)
    -> Result<Output, Failure>.Publisher
  {
    Result<Output, Failure>.Publisher(output)
  }

  /// Publishes the value with a failure type that is never used (`Just` cannot fail, so
  /// `transform` is never called).
  @inlinable
  public func mapError<Failure: Error>(_ transform: (Never) -> Failure)
    -> Result<Output, Failure>.Publisher
  {
    Result<Output, Failure>.Publisher(output)
  }

  /// A single value has no duplicates: this publisher (`predicate` is not called).
  @inlinable
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

  /// Publishes the value, or fails with the error `predicate` throws. Like Combine, the
  /// predicate is called once, with the value on both sides.
  @inlinable
  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(
      Result {
        _ = try predicate(output, output)
        return output
      })
  }

  /// `Just` cannot fail: this publisher.
  @inlinable
  public func replaceError(with output: Output) -> Just<Output> { self }

  /// `Just` is never empty: this publisher.
  @inlinable
  public func replaceEmpty(with output: Output) -> Just<Output> { self }

  /// `Just` cannot fail, so there is nothing to retry: this publisher.
  @inlinable
  public func retry(_ times: Int) -> Just<Output> { self }

  /// Publishes `nextPartialResult(initialResult, value)`.
  @inlinable
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Never>.Publisher
  {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// Publishes `nextPartialResult(initialResult, value)`, or fails with the error it throws.
  @inlinable
  public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// Publishes `nextPartialResult(initialResult, value)`.
  @inlinable
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Never>.Publisher
  {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// Publishes `nextPartialResult(initialResult, value)`, or fails with the error it throws.
  @inlinable
  public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// Publishes `elements`, then the value.
  @inlinable
  public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    prepend(elements)
  }

  /// Publishes `elements`, then the value.
  @inlinable
  public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
  where Output == S.Element {
    // The standard library's `+` reads `elements` once, as Combine's does (the calls a
    // sequence sees are Combine's).
    Publishers.Sequence(sequence: elements + [output])
  }

  /// Publishes the value, then `elements`.
  @inlinable
  public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    append(elements)
  }

  /// Publishes the value, then `elements`.
  @inlinable
  public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
  where Output == S.Element {
    Publishers.Sequence(sequence: [output] + elements)
  }
}
