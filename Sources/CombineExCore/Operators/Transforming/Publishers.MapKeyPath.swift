extension Publisher {
  /// Publishes the value of a key path.
  ///
  /// ```swift
  /// struct Point { let x: Int; let y: Int }
  /// let cancellable = [Point(x: 1, y: 2), Point(x: 3, y: 4)].publisher
  ///   .map(\.x)
  ///   .sink { print($0) }
  /// // Prints: 1, 3
  /// ```
  ///
  /// Like `map` with a closure, the operator keeps no state: demand, completion and
  /// cancellation pass straight through.
  public func map<Result>(_ keyPath: KeyPath<Output, Result>)
    -> Publishers.MapKeyPath<
      Self, Result
    >
  {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }
}

extension Publishers {
  /// A publisher that publishes the value of a key path.
  ///
  /// Create one with `map(_:)` and a key path. Like Combine's, it has no public initializer.
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath: KeyPath<Upstream.Output, Output>

    init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
      self.upstream = upstream
      self.keyPath = keyPath
    }

    /// Attaches the subscriber, through a stateless subscriber that reads the key path.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      let keyPath = self.keyPath
      upstream.subscribe(
        KeyPathSubscriber(
          downstream: subscriber, name: "ValueForKey", read: { $0[keyPath: keyPath] },
          keyPaths: keyPath))
    }
  }
}

/// The subscriber the key-path maps (`Publishers.MapKeyPath`, `MapKeyPath2`, `MapKeyPath3`)
/// attach upstream: stateless, like ``MapSubscriber``, with the key-path reads in `read`.
struct KeyPathSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
  typealias Failure = Downstream.Failure

  let downstream: Downstream
  let name: String
  let read: (Input) -> Downstream.Input
  /// The key path, or a tuple of the key paths, for `customMirror` (a tuple of up to three
  /// references fits an `Any` without an allocation).
  let keyPaths: Any

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { name }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(read(input))
  }

  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
  }
}

// As in Combine: the key path (`keyPath`), or each of them (`keyPath0`, `keyPath1`, ...).
extension KeyPathSubscriber: NamedReflection {
  var customMirror: Mirror {
    guard name == "ValueForKeys" else { return Mirror(self, children: ["keyPath": keyPaths]) }
    return Mirror(
      self,
      children: Mirror(reflecting: keyPaths).children.enumerated().map { index, path in
        ("keyPath\(index)", path.value)
      })
  }
}
