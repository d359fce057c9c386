extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided error-throwing
  /// closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Negative: Error {}
  /// let cancellable = [1, -2, 3].publisher
  ///   .tryMap { value -> Int in
  ///     guard value >= 0 else { throw Negative() }
  ///     return value * 10
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 10, failure(Negative())
  /// ```
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided
  /// error-throwing closure.
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) throws -> Output

    /// Creates a publisher that transforms the elements of `upstream` with `transform`.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      upstream.subscribe(OperatorDriver(TryMapLogic(transform: transform), downstream: subscriber))
    }
  }
}

extension Publishers.Map {
  /// Fuses a throwing map after a map into one `Publishers.TryMap`.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<
      Upstream, T
    >
  {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
  }
}

extension Publishers.TryMap {
  /// Fuses a map after a throwing map into one `Publishers.TryMap`.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
  }

  /// Fuses two throwing maps into one `Publishers.TryMap`.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<
      Upstream, T
    >
  {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
  }
}

/// `tryMap`: emit the transformed value, or fail with what the closure throws.
@usableFromInline
struct TryMapLogic<Input, Output, UpstreamFailure: Error>: OperatorLogic {
  @usableFromInline let transform: (Input) throws -> Output

  @inlinable
  init(transform: @escaping (Input) throws -> Output) {
    self.transform = transform
  }

  @inlinable
  var name: String { "TryMap" }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), and a completion before it is ignored.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel }

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
