extension Publisher {
  /// Omits elements from the upstream publisher until a given closure returns false, before
  /// republishing all remaining elements.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .drop(while: { $0 < 0 })
  ///   .sink { print($0) }
  /// for value in [-2, -1, 0, -3, 4] { subject.send(value) }
  /// // Prints: 0, -3, 4
  /// ```
  ///
  /// Once the closure has returned `false` it is not called again. A dropped element gives its
  /// unit of demand back to the upstream, so the subscriber still receives as many elements as
  /// it asked for. The upstream's completion passes straight through.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Omits elements from the upstream publisher until an error-throwing closure returns false,
  /// before republishing all remaining elements.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Unexpected: Error {}
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .tryDrop(while: { value in
  ///     if value == 0 { throw Unexpected() }
  ///     return value < 0
  ///   })
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// for value in [-1, 0, 1] { subject.send(value) }
  /// // Prints: failure(Unexpected())
  /// ```
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryDropWhile<Self>
  {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that omits elements from an upstream publisher until a given closure returns
  /// false.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that indicates whether to drop the element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that omits elements from `upstream` while `predicate` returns true.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let predicate = self.predicate
      let logic = DropWhileLogic<Upstream.Output, Failure, Failure>(
        name: "DropWhile", shouldDrop: { .success(predicate($0)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }

  /// A publisher that omits elements from an upstream publisher until a given error-throwing
  /// closure returns false.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that indicates whether to drop the element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that omits elements from `upstream` while `predicate` returns true,
    /// failing if it throws.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      let predicate = self.predicate
      let logic = DropWhileLogic<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryDropWhile", shouldDrop: { input in Result { try predicate(input) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `drop(while:)` and `tryDrop(while:)`: skip elements while the predicate holds, then pass
/// everything on without asking it again; a throwing predicate fails.
@usableFromInline
struct DropWhileLogic<Input, UpstreamFailure: Error, Failure: Error>: OperatorLogic {
  @usableFromInline let name: String
  @usableFromInline let shouldDrop: (Input) -> Result<Bool, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    name: String, shouldDrop: @escaping (Input) -> Result<Bool, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.shouldDrop = shouldDrop
    self.convertFailure = convertFailure
  }
  /// The state: whether the predicate still decides (false once it let an element through).
  @inlinable
  var initialState: Bool { true }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), a completion before it is ignored, and
  /// a request of zero is an API violation.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel.trappingZeroDemand }

  @inlinable
  func receive(_ input: Input, _ dropping: inout Bool) -> OperatorStep<Input, Failure> {
    guard dropping else { return .emit(input) }
    switch shouldDrop(input) {
    case .success(true):
      return .skip
    case .success(false):
      dropping = false
      return .emit(input)
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Input, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
