extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a second
  /// publisher.
  ///
  /// ```swift
  /// let values = PassthroughSubject<Int, Never>()
  /// let start = PassthroughSubject<Void, Never>()
  /// let cancellable = values.drop(untilOutputFrom: start).sink { print($0) }
  /// values.send(1)  // dropped: `start` has not sent anything yet
  /// start.send()
  /// values.send(2)
  /// values.send(3)
  /// // Prints: 2, 3
  /// ```
  ///
  /// The second publisher's first value, sent from any thread, lets every later upstream value
  /// through (only its first value matters; its subscription is cancelled when the result
  /// ends). If it completes before sending a value, the result completes the same way and
  /// cancels the upstream. As in Combine, a dropped value uses up the unit of demand it was
  /// sent for: ask for more than you expect to be dropped. See ``Publishers/DropUntilOutput``.
  ///
  /// - Parameter publisher: A publisher to monitor for its first emitted element.
  /// - Returns: A publisher that drops elements from the upstream publisher until the `other`
  ///   publisher produces a value.
  public func drop<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.DropUntilOutput<Self, P>
  where Failure == P.Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that ignores elements from the upstream publisher until it receives an
  /// element from a second publisher.
  ///
  /// The downstream receives its subscription first; then `other` is subscribed (and asked for
  /// one value), then `upstream` (even if `other` completed meanwhile: its subscription is
  /// then cancelled), as in Combine.
  /// - **Values.** Upstream values are dropped until `other` sends its first value; from then
  ///   on they pass straight through, as the upstream delivers them.
  /// - **Demand** passes straight through to the upstream (demand requested before the
  ///   upstream's subscription arrives waits for it). As in Combine, a dropped value uses up
  ///   the demand it was sent for (it is not given back to the upstream).
  /// - **Completion.** The upstream's completion passes through (and cancels `other`). If
  ///   `other` completes before sending a value, the result completes the same way (finished
  ///   or failed) and cancels the upstream. Once `other` has sent its value, its completion no
  ///   longer matters; its subscription is left alone, as in Combine, until the result ends
  ///   (the upstream completes, or the downstream cancels), which cancels it.
  /// - **Cancellation** cancels the upstream and `other`, and releases the downstream.
  /// - **Misuse.** As in Combine, an upstream value beyond the downstream's demand while values
  ///   are dropped (before `other`'s value: also before the upstream's subscription, or after
  ///   the end) stops the program; a value within the demand that crosses a cancel is ignored.
  /// - **Threading.** `other` may send from any thread, concurrently with the upstream: its
  ///   value switches the state atomically, and the downstream receives one call at a time
  ///   (values are only delivered after the switch, and `other`'s completion only matters
  ///   before it).
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A publisher to monitor for its first emitted element.
    public let other: Other

    /// Creates a publisher that ignores elements from the upstream publisher until it receives
    /// an element from another publisher.
    ///
    /// - Parameters:
    ///   - upstream: A publisher to drop elements from while waiting for another publisher to
    ///     emit elements.
    ///   - other: A publisher to monitor for its first emitted element.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches the subscriber: it receives its subscription, then `other` and `upstream` are
    /// subscribed, in that order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Other.Failure == S.Failure {
      DropUntilOutputStorage(downstream: subscriber).start(upstream: upstream, trigger: other)
    }
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
