extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// ```swift
  /// let values = PassthroughSubject<Int, Never>()
  /// let stop = PassthroughSubject<Void, Never>()
  /// let cancellable = values.prefix(untilOutputFrom: stop)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// values.send(1)
  /// values.send(2)
  /// stop.send()
  /// values.send(3)  // ignored: the result has finished
  /// // Prints: 1, 2, finished
  /// ```
  ///
  /// The other publisher's first value, sent from any thread, finishes the result and cancels
  /// the upstream at once (if a value is being delivered meanwhile, `.finished` follows as
  /// soon as that delivery returns). The other publisher's completion without a value is
  /// ignored. See ``Publishers/PrefixUntilOutput``.
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher publishes an
  ///   element.
  public func prefix<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.PrefixUntilOutput<Self, P>
  {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that republishes elements until another publisher emits an element.
  ///
  /// As in Combine, `other` is subscribed first (and asked for one value), then `upstream`; the
  /// downstream receives its subscription when the upstream's arrives. If the upstream
  /// completes before sending its subscription, the result ends without a word (the
  /// downstream has no subscription yet) and cancels `other`; if `other` sends its value
  /// before the upstream's subscription, the downstream receives its subscription, then
  /// `.finished` (Combine sends `.finished` alone), and the upstream's subscription is
  /// cancelled when it arrives.
  /// - **Values and demand** pass straight through: upstream values reach the downstream as
  ///   the upstream delivers them, and the downstream's requests (and the demand it returns)
  ///   go to the upstream (demand requested before the upstream's subscription arrives waits
  ///   for it).
  /// - **Completion.** `other`'s first value finishes the result: the upstream and `other` are
  ///   cancelled at once and `.finished` is delivered, right away or, if an upstream value is
  ///   being delivered on another thread at that moment, as soon as that delivery returns;
  ///   nothing follows it. `other`'s completion without a value is ignored (its failure type
  ///   may differ from the upstream's). The upstream's completion passes through and cancels
  ///   `other`.
  /// - **Cancellation** cancels the upstream, then `other`, and releases the downstream.
  /// - **Threading.** `other` may send from any thread, concurrently with the upstream: the
  ///   downstream never receives `.finished` while it is receiving a value.
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// Another publisher, whose first output causes this publisher to finish.
    public let other: Other

    /// Creates a publisher that republishes elements until another publisher emits an
    /// element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - other: Another publisher, whose first output causes this publisher to finish.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches the subscriber: it receives its subscription, then `other` and `upstream` are
    /// subscribed, in that order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      PrefixUntilOutputStorage(downstream: subscriber).start(upstream: upstream, trigger: other)
    }
  }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
