// The operators Combine specializes on `Result.Publisher`: since the result is known up front,
// they are computed at once and return another `Result.Publisher` (or `Empty`) instead of
// wrapping the publisher in an operator. Closures run when the operator is applied, not when a
// subscriber arrives, and only on a success: a failure passes through unchanged.

extension Result.Publisher where Output: Equatable {
  /// Publishes whether the value equals `output`, or the failure.
  public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map { $0 == output })
  }

  /// A single value has no duplicates: this publisher.
  public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
  /// The minimum of a single value: this publisher.
  public func min() -> Result<Output, Failure>.Publisher { self }

  /// The maximum of a single value: this publisher.
  public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
  /// Publishes whether the value satisfies `predicate`, or the failure.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// Publishes whether the value satisfies `predicate`, or fails with the error it throws (or
  /// the original failure).
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(tryMapResult(predicate))
  }

  /// Publishes whether the value satisfies `predicate`, or the failure.
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// Publishes whether the value satisfies `predicate`, or fails with the error it throws (or
  /// the original failure).
  public func tryContains(where predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(tryMapResult(predicate))
  }

  /// Publishes the value in a one-element array, or the failure.
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(result.map { [$0] })
  }

  /// The minimum of a single value: this publisher (`areInIncreasingOrder` is not called).
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  {
    self
  }

  /// Publishes the value, or fails with the error `areInIncreasingOrder` throws. Like
  /// Combine, the closure is called once, with the value on both sides.
  public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(checkedWith(areInIncreasingOrder))
  }

  /// The maximum of a single value: this publisher (`areInIncreasingOrder` is not called).
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  {
    self
  }

  /// Publishes the value, or fails with the error `areInIncreasingOrder` throws. Like
  /// Combine, the closure is called once, with the value on both sides.
  public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(checkedWith(areInIncreasingOrder))
  }

  /// Publishes 1, or the failure.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(result.map { _ in 1 })
  }

  /// The first value: this publisher.
  public func first() -> Result<Output, Failure>.Publisher { self }

  /// The last value: this publisher.
  public func last() -> Result<Output, Failure>.Publisher { self }

  /// Finishes without publishing anything. As in Combine, the result is an `Empty`, which
  /// finishes even when this publisher holds a failure.
  public func ignoreOutput() -> Empty<Output, Failure> {
    Empty()
  }

  /// Publishes the transformed value, or the failure.
  ///
  /// ```swift
  /// let result: Result<Int, URLError> = .success(21)
  /// let doubled: Result<Int, URLError>.Publisher = result.publisher.map { $0 * 2 }
  /// let cancellable = doubled.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 42
  /// ```
  public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map(transform))
  }

  /// Publishes the transformed value, or fails with the error `transform` throws (or the
  /// original failure).
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(tryMapResult(transform))
  }

  /// Publishes the value, or the transformed failure.
  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(result.mapError(transform))
  }

  /// A single value has no duplicates: this publisher (`predicate` is not called).
  public func removeDuplicates(by predicate: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  {
    self
  }

  /// Publishes the value, or fails with the error `predicate` throws. Like Combine, the
  /// predicate is called once, with the value on both sides.
  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(checkedWith(predicate))
  }

  /// Publishes the value, or `output` in place of the failure.
  public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
    switch result {
    case .success(let value): return Result<Output, Never>.Publisher(value)
    case .failure: return Result<Output, Never>.Publisher(output)
    }
  }

  /// A `Result.Publisher` is never empty: this publisher.
  public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

  /// The result cannot change on a new attempt: this publisher.
  public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

  /// Publishes `nextPartialResult(initialResult, value)`, or the failure.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Failure>.Publisher
  {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)`, or fails with the error it throws
  /// (or the original failure).
  public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  {
    Result<T, any Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)`, or the failure.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Failure>.Publisher
  {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)`, or fails with the error it throws
  /// (or the original failure).
  public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  {
    Result<T, any Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
  }

  /// The result with `transform` applied to the value; a thrown error becomes the failure.
  private func tryMapResult<T>(_ transform: (Output) throws -> T) -> Result<T, any Error> {
    switch result {
    case .success(let value): return Result<T, any Error> { try transform(value) }
    case .failure(let error): return .failure(error)
    }
  }

  /// The result after calling `predicate(value, value)`, whose thrown error becomes the
  /// failure.
  private func checkedWith(_ predicate: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>
  {
    tryMapResult { value in
      _ = try predicate(value, value)
      return value
    }
  }
}

extension Result.Publisher where Failure == Never {
  /// Publishes the value with a failure type that is never used.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    switch result {
    case .success(let value): return Result<Output, E>.Publisher(value)
    }
  }
}
