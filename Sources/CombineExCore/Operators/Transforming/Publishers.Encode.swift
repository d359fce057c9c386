extension Publisher {
  /// Encodes the output from upstream using a specified encoder.
  ///
  /// ```swift
  /// struct Article: Codable { let title: String }
  /// let cancellable = Just(Article(title: "Combine"))
  ///   .encode(encoder: JSONEncoder())
  ///   .sink(
  ///     receiveCompletion: { print($0) },
  ///     receiveValue: { print(String(decoding: $0, as: UTF8.self)) })
  /// // Prints: {"title":"Combine"}, finished
  /// ```
  ///
  /// Like `tryMap`, an encoding error cancels the upstream and fails the publisher with that
  /// error.
  ///
  /// - Parameter encoder: An encoder that implements the ``TopLevelEncoder`` protocol.
  public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder>
  where Output: Encodable {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}

extension Publishers {
  /// A publisher that encodes elements received from an upstream publisher, using a
  /// ``TopLevelEncoder``.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
  where Upstream.Output: Encodable {
    /// The kind of errors this publisher might publish: an encoding error, or the upstream's
    /// failure.
    public typealias Failure = any Error

    /// The kind of values published by this publisher: the encoder's output.
    public typealias Output = Coder.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline
    let encoder: Coder

    /// Creates a publisher that encodes the elements of `upstream` with `encoder`.
    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Coder.Output == S.Input, S.Failure == any Error {
      let encoder = self.encoder
      let logic = CodingLogic<Upstream.Output, Coder.Output, Upstream.Failure>(
        name: "Encode", transform: { try encoder.encode($0) })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `encode` and `decode`: emit the coded value, or fail with the coder's error.
@usableFromInline
struct CodingLogic<Input, Output, UpstreamFailure: Error>: OperatorLogic {
  @usableFromInline let name: String
  @usableFromInline let transform: (Input) throws -> Output

  @inlinable
  init(name: String, transform: @escaping (Input) throws -> Output) {
    self.name = name
    self.transform = transform
  }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), and a completion before it is passed
  /// on.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel.endingOnEarlyCompletion }

  @usableFromInline
  func mirrorChildren(_: Void, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    [
      ("downstream", context.downstream), ("finished", context.ended),
      ("upstreamSubscription", context.upstream),
    ]
  }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Output, any Error> {
    do {
      return .emit(try transform(input))
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, any Error> {
    .completion(.failure(failure))
  }
}
