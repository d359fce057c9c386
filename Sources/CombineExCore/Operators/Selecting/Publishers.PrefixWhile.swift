extension Publisher {
  /// Republishes elements while a predicate closure indicates publishing should continue.
  ///
  /// ```swift
  /// let cancellable = [0, 1, 2, 3, 0, 1].publisher
  ///   .eraseToAnyPublisher()
  ///   .prefix(while: { $0 < 3 })
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 0, 1, 2, finished
  /// ```
  ///
  /// The first element for which the closure returns `false` is not published: the operator
  /// cancels the upstream and finishes instead.
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Republishes elements while an error-throwing predicate closure indicates publishing should
  /// continue.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error;
  /// if it returns `false`, the publisher cancels the upstream and finishes.
  ///
  /// ```swift
  /// struct Negative: Error {}
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .tryPrefix(while: { value in
  ///     if value < 0 { throw Negative() }
  ///     return value < 10
  ///   })
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// for value in [1, 2, -1, 3] { subject.send(value) }
  /// // Prints: 1, 2, failure(Negative())
  /// ```
  public func tryPrefix(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryPrefixWhile<Self>
  {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that republishes elements while a predicate closure indicates publishing
  /// should continue.
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to continue publishing elements.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes elements of `upstream` while `predicate` returns
    /// true.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let predicate = self.predicate
      let logic = PrefixWhileLogic<Upstream.Output, Failure, Failure>(
        name: "PrefixWhile", shouldContinue: { .success(predicate($0)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }

  /// A publisher that republishes elements while an error-throwing predicate closure indicates
  /// publishing should continue.
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether publishing should continue.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes elements of `upstream` while `predicate` returns
    /// true, failing if it throws.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      let predicate = self.predicate
      let logic = PrefixWhileLogic<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryPrefixWhile", shouldContinue: { input in Result { try predicate(input) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `prefix(while:)` and `tryPrefix(while:)`: pass elements on while the predicate holds; the
/// first one that fails it ends the stream (finished), a throwing predicate fails it.
@usableFromInline
struct PrefixWhileLogic<Input, UpstreamFailure: Error, Failure: Error>: OperatorLogic {
  @usableFromInline let name: String
  @usableFromInline let shouldContinue: (Input) -> Result<Bool, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    name: String, shouldContinue: @escaping (Input) -> Result<Bool, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.shouldContinue = shouldContinue
    self.convertFailure = convertFailure
  }

  /// As Combine's filtering operators: a value, a completion or a request before the
  /// upstream's subscription is an API violation, and a cancel before it cancels the
  /// subscription when it comes.
  @inlinable
  var misusePolicy: MisusePolicy { .trapsEarlyEvents }

  @usableFromInline
  func mirrorChildren(_: State, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    [("downstream", context.downstream)]
  }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    switch shouldContinue(input) {
    case .success(true): return .emit(input)
    case .success(false): return .finish
    case .failure(let error): return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Input, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
