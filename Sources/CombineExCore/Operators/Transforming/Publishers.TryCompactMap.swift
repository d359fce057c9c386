extension Publisher {
  /// Calls an error-throwing closure with each received element and publishes any returned
  /// optional that has a value.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Negative: Error {}
  /// let cancellable = ["1", "x", "3", "-4", "5"].publisher
  ///   .tryCompactMap { text -> Int? in
  ///     guard let value = Int(text) else { return nil }
  ///     guard value >= 0 else { throw Negative() }
  ///     return value
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, 3, failure(Negative())
  /// ```
  ///
  /// A `nil` result gives its unit of demand back to the upstream, like ``compactMap(_:)``.
  public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?)
    -> Publishers.TryCompactMap<Self, T>
  {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling an error-throwing closure
  /// with each received element.
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure that receives values from the upstream publisher and returns
    /// optional values.
    public let transform: (Upstream.Output) throws -> Output?

    /// Creates a publisher that republishes the non-`nil` results of `transform`, failing if it
    /// throws.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      upstream.subscribe(
        OperatorDriver(
          TryCompactMapLogic<Upstream.Output, Output, Upstream.Failure>(
            transform: transform),
          downstream: subscriber))
    }
  }
}

extension Publishers.TryCompactMap {
  /// Fuses a compact map after a throwing compact map into one `Publishers.TryCompactMap`.
  ///
  /// As in Combine, the fused closure may throw.
  public func compactMap<T>(_ transform: @escaping (Output) throws -> T?)
    -> Publishers.TryCompactMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
  }
}

/// `tryCompactMap`: emit the non-`nil` result, skip a `nil`, fail with what the closure throws.
@usableFromInline
struct TryCompactMapLogic<Input, Output, UpstreamFailure: Error>: OperatorLogic {
  @usableFromInline let transform: (Input) throws -> Output?

  @inlinable
  init(transform: @escaping (Input) throws -> Output?) {
    self.transform = transform
  }

  @inlinable
  var name: String { "TryCompactMap" }

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
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Output, any Error> {
    do {
      guard let output = try transform(input) else { return .skip }
      return .emit(output)
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, any Error> {
    .completion(.failure(failure))
  }
}
