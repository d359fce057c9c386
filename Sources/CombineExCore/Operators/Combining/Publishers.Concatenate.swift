extension Publisher {
  /// Prefixes this publisher's output with the specified values.
  ///
  /// ```swift
  /// let cancellable = [3, 4].publisher
  ///   .prepend(1, 2)
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 4
  /// ```
  ///
  /// This publisher is subscribed only after the values were delivered. See
  /// ``Publishers/Concatenate``.
  ///
  /// - Parameter elements: The values to publish before this publisher's elements.
  /// - Returns: A publisher of `elements`, then this publisher's elements.
  public func prepend(
    _ elements: Output...
  ) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
    prepend(elements)
  }

  /// Prefixes this publisher's output with the elements of a sequence.
  ///
  /// ```swift
  /// let cancellable = [3, 4].publisher
  ///   .prepend(1...2)
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 4
  /// ```
  ///
  /// - Parameter elements: The sequence whose elements are published first.
  /// - Returns: A publisher of the sequence's elements, then this publisher's elements.
  public func prepend<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where Output == S.Element {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Prefixes this publisher's output with the elements of another publisher.
  ///
  /// ```swift
  /// let cancellable = [3, 4].publisher
  ///   .prepend([1, 2].publisher)
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 4
  /// ```
  ///
  /// This publisher is subscribed only after `publisher` finished; if `publisher` fails, the
  /// result fails and this publisher is never subscribed.
  ///
  /// - Parameter publisher: The publisher whose elements are published first.
  /// - Returns: A publisher of `publisher`'s elements, then this publisher's elements.
  public func prepend<P: Publisher>(
    _ publisher: P
  ) -> Publishers.Concatenate<P, Self> where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }

  /// Appends the specified values to this publisher's output.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher
  ///   .append(3, 4)
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 4
  /// ```
  ///
  /// The values are published after this publisher finishes (not if it fails).
  ///
  /// - Parameter elements: The values to publish after this publisher's elements.
  /// - Returns: A publisher of this publisher's elements, then `elements`.
  public func append(
    _ elements: Output...
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
    append(elements)
  }

  /// Appends the elements of a sequence to this publisher's output.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher
  ///   .append(3...4)
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 4
  /// ```
  ///
  /// - Parameter elements: The sequence whose elements are published after this publisher's.
  /// - Returns: A publisher of this publisher's elements, then the sequence's elements.
  public func append<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where Output == S.Element {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Appends the elements of another publisher to this publisher's output.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher
  ///   .append([3, 4].publisher)
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 4
  /// ```
  ///
  /// `publisher` is subscribed only after this publisher finished; if this publisher fails, the
  /// result fails and `publisher` is never subscribed.
  ///
  /// - Parameter publisher: The publisher whose elements are published after this publisher's.
  /// - Returns: A publisher of this publisher's elements, then `publisher`'s elements.
  public func append<P: Publisher>(
    _ publisher: P
  ) -> Publishers.Concatenate<Self, P> where P.Failure == Failure, P.Output == Output {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }
}

extension Publishers {
  /// A publisher that emits all of one publisher's elements before those from another
  /// publisher.
  ///
  /// - **Order.** The suffix is subscribed only after the prefix finished; a failure of the
  ///   prefix is delivered at once and the suffix is never subscribed.
  /// - **Demand.** Demand passes straight to the publisher being relayed; what the prefix was
  ///   asked for and did not deliver is asked of the suffix when it is subscribed.
  /// - **Cancellation** cancels whichever of the two is subscribed, and releases the downstream.
  /// - **Threading.** Deliveries never overlap: only one of the two is subscribed at a time.
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
    /// The kind of values this publisher publishes: the prefix's and suffix's.
    public typealias Output = Suffix.Output

    /// The kind of errors this publisher might publish: the prefix's and suffix's.
    public typealias Failure = Suffix.Failure

    /// The publisher to republish, in its entirety, before republishing elements from
    /// `suffix`.
    public let prefix: Prefix

    /// The publisher to republish only after `prefix` finishes.
    public let suffix: Suffix

    /// Creates a publisher that republishes the elements of `prefix`, then those of `suffix`.
    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    /// Attaches the subscriber: the prefix is subscribed, and the subscriber receives its
    /// subscription when the prefix's arrives, as in Combine.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      ConcatenateSubscription(suffix: suffix, downstream: subscriber).start(prefix)
    }
  }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

// `Publishers.Sequence` keeps its own type for append/prepend, as in Combine: see
// Publishers.Sequence+Operators.swift.

/// The subscription of ``Publishers/Concatenate``: stage 0 relays the prefix; when it
/// finishes, stage 1 relays the suffix with the demand carried over.
@usableFromInline
final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>:
  RelayStorage<Downstream>, @unchecked Sendable
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
  // @unchecked Sendable: `suffix` is guarded by `lock`; the base class guards the rest.
  /// Kept until it is subscribed or the downstream cancels (then released, with what it holds).
  @usableFromInline
  var suffix: Suffix?

  @inlinable
  init(suffix: Suffix, downstream: Downstream) {
    self.suffix = suffix
    super.init(downstream: downstream)
  }

  @usableFromInline
  override var description: String { "Concatenate" }

  override func didCancel() {
    let suffix = takeSuffix()
    withExtendedLifetime(suffix) {}  // Released here, without the lock.
  }

  /// Takes the suffix out (once), to subscribe or to release it.
  @inlinable
  func takeSuffix() -> Suffix? {
    lock.withLock {
      defer { suffix = nil }
      return suffix
    }
  }

  @inlinable
  func start<Prefix: Publisher>(_ prefix: Prefix)
  where Prefix.Output == Downstream.Input, Prefix.Failure == Downstream.Failure {
    subscribe(prefix, stage: 0, role: RelayFirstStage.self) { [self] completion in
      switch completion {
      case .finished:
        guard let suffix = takeSuffix() else { return }
        subscribe(suffix, stage: 1, role: RelayNextStage.self) { [self] completion in
          finish(completion)
        }
      case .failure:
        finish(completion)
      }
    }
  }
}
