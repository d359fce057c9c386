extension Publisher {
  /// Omits the specified number of elements before republishing subsequent elements.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .dropFirst(2)
  ///   .sink { print($0) }
  /// for value in 1...5 { subject.send(value) }
  /// // Prints: 3, 4, 5
  /// ```
  ///
  /// Like Combine, the operator asks the upstream for the elements it will drop on top of the
  /// subscriber's demand: as soon as it is subscribed it requests `count` elements, and it
  /// passes every later request through unchanged. A negative `count` stops the program when
  /// the publisher is subscribed.
  ///
  /// - Parameter count: The number of elements to omit. The default is `1`.
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that omits a specified number of elements before republishing later elements.
  public struct Drop<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The number of elements to drop.
    public let count: Int

    /// Creates a publisher that omits the first `count` elements of `upstream`.
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber. As in Combine, the subscriber receives its subscription before
    /// the upstream is subscribed; demand it requests meanwhile is kept for the upstream.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      checkAPI(
        count >= 0,
        "dropFirst(\(count)): the number of elements to drop cannot be negative.")
      OperatorDriver(DropLogic<Output, Failure>(count: count), downstream: subscriber)
        .start(downstreamFirst: upstream)
    }
  }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

/// `dropFirst(_:)`: the downstream receives its subscription before the upstream is
/// subscribed, so demand it requests meanwhile waits for the upstream; the count to drop is
/// requested on top of it, and that many elements are swallowed without asking for them again.
@usableFromInline
struct DropLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let count: Int

  @inlinable
  init(count: Int) {
    self.count = count
  }

  @inlinable
  var name: String { "Drop" }

  @inlinable
  var initialDemand: Subscribers.Demand { .max(count) }

  /// As in Combine, a completion before the upstream's subscription ends the operator (the
  /// downstream, which has its subscription already, receives it), and a request of zero is an
  /// API violation. A cancel before the upstream's subscription ends the operator (rule 3),
  /// where Combine ignores it (Docs/Core.md lists the difference).
  @inlinable
  var misusePolicy: MisusePolicy { .standard.endingOnEarlyCompletion.trappingZeroDemand }

  /// The state: the elements still to drop.
  @inlinable
  var initialState: Int { count }

  @inlinable
  func receive(_ input: Input, _ remaining: inout Int) -> OperatorStep<Input, Failure> {
    guard remaining > 0 else { return .emit(input) }
    // Already requested for dropping: no demand goes back.
    remaining -= 1
    return .consume
  }
}
