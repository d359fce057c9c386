extension Optional {
  /// A publisher that publishes the wrapped value, if any, to each subscriber exactly once,
  /// then finishes; `nil` finishes at once.
  ///
  /// ```swift
  /// let some: Int? = 1
  /// let none: Int? = nil
  /// let first = some.publisher.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, finished
  /// let second = none.publisher.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: finished
  /// ```
  @inlinable
  public var publisher: Publisher {
    Publisher(self)
  }

  /// A publisher that publishes an optional value to each subscriber exactly once, if the
  /// optional has a value.
  ///
  /// Each subscriber receives the value once it requests demand, followed by `.finished`. If
  /// `output` is `nil`, each subscriber finishes at once without a value. In contrast with
  /// ``Just``, this publisher may send no value at all.
  ///
  /// ```swift
  /// let port = Optional<Int>.Publisher(Int("8080"))
  /// let cancellable = port.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 8080, finished
  /// ```
  @frozen
  public struct Publisher: CombineExCore.Publisher {
    /// The kind of values published by this publisher: the wrapped type.
    public typealias Output = Wrapped

    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    /// The output to deliver to each subscriber, or `nil` to finish without a value.
    public let output: Wrapped?

    /// Creates a publisher to emit the value of the optional, or to finish immediately if the
    /// optional doesn't have a value.
    @inlinable
    public init(_ output: Output?) {
      self.output = output
    }

    /// Attaches the subscriber, which receives the value on its first demand, or finishes at
    /// once if there is none.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      if let output {
        let subscription = SingleValueSubscription(
          downstream: subscriber, value: output, name: "Optional")
        handOver(subscription, reportingDetachTo: subscriber)
      } else {
        completeAtOnce(subscriber, with: .finished)
      }
    }
  }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
