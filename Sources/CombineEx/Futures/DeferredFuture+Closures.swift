import CombineExCore

// Futures made from a synchronous closure, run once per subscription (the original CombineEx's
// `closure`, `successClosure` and `failureClosure`).

extension DeferredFuture {
  /// A future that calls `block` for each subscription and publishes the result it returns.
  ///
  /// ```swift
  /// struct Empty: Error {}
  /// var stock = ["apple"]
  /// let next = DeferredFuture<String, Empty>.closure {
  ///   stock.isEmpty ? .failure(Empty()) : .success(stock.removeFirst())
  /// }
  /// let first = next.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: apple, finished
  /// let second = next.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Empty())
  /// ```
  ///
  /// `block` runs on the subscribing thread, when the subscriber has received its
  /// subscription; nothing runs before.
  public static func closure(
    _ block: @escaping () -> Result<Output, Failure>
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: FutureWork<Output, Failure> { promise in
        promise(block())
        return nil
      })
  }

  /// A future that calls `block` for each subscription and publishes the value it returns.
  ///
  /// ```swift
  /// var clicks = 0
  /// let click = DeferredFuture<Int, Never>.successClosure {
  ///   clicks += 1
  ///   return clicks
  /// }
  /// let a = click.sink { print($0) }  // Prints: 1
  /// let b = click.sink { print($0) }  // Prints: 2
  /// ```
  public static func successClosure(
    _ block: @escaping () -> Output
  ) -> DeferredFuture<Output, Failure> {
    closure { .success(block()) }
  }

  /// A future that calls `block` for each subscription and fails with the error it returns.
  ///
  /// ```swift
  /// struct Attempt: Error { let number: Int }
  /// var attempts = 0
  /// let failing = DeferredFuture<Int, Attempt>.failureClosure {
  ///   attempts += 1
  ///   return Attempt(number: attempts)
  /// }
  /// let first = failing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// let second = failing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Attempt(number: 1)), failure(Attempt(number: 2))
  /// ```
  public static func failureClosure(
    _ block: @escaping () -> Failure
  ) -> DeferredFuture<Output, Failure> {
    closure { .failure(block()) }
  }
}
