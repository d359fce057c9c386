import CombineExCore

extension Publisher {
  /// Transforms each value with a closure that returns a `Result`: a success is published, a
  /// failure ends the stream with that error (of the upstream's failure type).
  ///
  /// ```swift
  /// struct Invalid: Error {}
  /// let cancellable = [1, 2, -3, 4].publisher
  ///   .setFailureType(to: Invalid.self)
  ///   .attemptMap { $0 >= 0 ? .success($0 * 10) : .failure(Invalid()) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 10, 20, failure(Invalid())
  /// ```
  ///
  /// Like `tryMap`, but typed: the failure keeps the upstream's type instead of becoming
  /// `any Error`. A failure cancels the upstream before it is delivered; nothing follows it.
  /// Demand passes straight through.
  public func attemptMap<NewOutput>(
    _ transform: @escaping (Output) -> Result<NewOutput, Failure>
  ) -> Publishers.AttemptMap<Self, NewOutput> {
    Publishers.AttemptMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that transforms each value of its upstream with a closure returning a
  /// `Result`, and fails with the closure's first failure.
  ///
  /// See ``Publisher/attemptMap(_:)``.
  public struct AttemptMap<Upstream: Publisher, NewOutput>: Publisher {
    /// The kind of values this publisher publishes: the successes of the transform.
    public typealias Output = NewOutput

    /// The kind of errors this publisher might publish: the upstream's, which is also the
    /// transform's.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are transformed.
    public let upstream: Upstream

    /// Makes a value, or the error to fail with, from each upstream value.
    public let transform: (Upstream.Output) -> Result<NewOutput, Failure>

    /// Creates a publisher that transforms `upstream`'s values with `transform`.
    public init(
      upstream: Upstream, transform: @escaping (Upstream.Output) -> Result<NewOutput, Failure>
    ) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == NewOutput, S.Failure == Failure {
      upstream.receive(
        subscriber: OperatorDriver(AttemptMapLogic(transform: transform), downstream: subscriber))
    }
  }
}

// Each subscription subscribes the upstream once: cold when the upstream is.
extension Publishers.AttemptMap: ColdPublisher where Upstream: ColdPublisher {}

/// `attemptMap`: publish the success, or fail with the failure (the core's operator driver
/// cancels the upstream first).
@usableFromInline
struct AttemptMapLogic<Input, Output, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure

  @usableFromInline let transform: (Input) -> Result<Output, Failure>

  @inlinable
  init(transform: @escaping (Input) -> Result<Output, Failure>) {
    self.transform = transform
  }

  @inlinable
  var name: String { "AttemptMap" }

  /// As Combine's `tryMap`, whose shape it has: a cancel before the upstream's subscription is
  /// only noted (the subscription that arrives is handed on untouched), and a completion before
  /// it is ignored (see the core's `MisusePolicy`).
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Output, Failure> {
    switch transform(input) {
    case .success(let output): .emit(output)
    case .failure(let error): .fail(error)
    }
  }
}
