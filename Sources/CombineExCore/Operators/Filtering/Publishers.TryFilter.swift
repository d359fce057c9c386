extension Publisher {
  /// Republishes all elements that match a provided error-throwing closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Zero: Error {}
  /// let cancellable = [1, 2, 3, 0, 4].publisher
  ///   .tryFilter { value in
  ///     guard value != 0 else { throw Zero() }
  ///     return value.isMultiple(of: 2) == false
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, 3, failure(Zero())
  /// ```
  ///
  /// A rejected element gives its unit of demand back to the upstream, like ``filter(_:)``.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<
      Self
    >
  {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers {
  /// A publisher that republishes all elements that match a provided error-throwing closure.
  public struct TryFilter<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes the elements of `upstream` that match
    /// `isIncluded`, failing if it throws.
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      upstream.subscribe(
        OperatorDriver(
          TryFilterLogic<Upstream.Output, Upstream.Failure>(isIncluded: isIncluded),
          downstream: subscriber))
    }
  }
}

extension Publishers.Filter {
  /// Fuses a throwing filter after a filter into one `Publishers.TryFilter` testing both.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<Upstream>
  {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}

extension Publishers.TryFilter {
  /// Fuses a filter after a throwing filter into one `Publishers.TryFilter` testing both.
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }

  /// Fuses two throwing filters into one `Publishers.TryFilter` testing both.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<Upstream>
  {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}

/// `tryFilter`: emit a matching element, skip another, fail with what the closure throws.
@usableFromInline
struct TryFilterLogic<Input, UpstreamFailure: Error>: OperatorLogic {
  @usableFromInline let isIncluded: (Input) throws -> Bool

  @inlinable
  init(isIncluded: @escaping (Input) throws -> Bool) {
    self.isIncluded = isIncluded
  }

  @inlinable
  var name: String { "TryFilter" }

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
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, any Error> {
    do {
      return try isIncluded(input) ? .emit(input) : .skip
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Input, any Error> {
    .completion(.failure(failure))
  }
}
