extension Publisher {
  /// Publishes the values of two key paths as a tuple.
  ///
  /// ```swift
  /// struct Point { let x: Int; let y: Int }
  /// let cancellable = [Point(x: 1, y: 2), Point(x: 3, y: 4)].publisher
  ///   .map(\.x, \.y)
  ///   .sink { print("\($0.0)/\($0.1)") }
  /// // Prints: 1/2, 3/4
  /// ```
  public func map<Result0, Result1>(
    _ keyPath0: KeyPath<Output, Result0>, _ keyPath1: KeyPath<Output, Result1>
  ) -> Publishers.MapKeyPath2<Self, Result0, Result1> {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }
}

extension Publishers {
  /// A publisher that publishes the values of two key paths as a tuple.
  ///
  /// Create one with `map(_:_:)`. Like Combine's, it has no public initializer.
  public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
    /// The kind of values published by this publisher: a tuple of the two key paths' values.
    public typealias Output = (Output0, Output1)

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>

    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
    }

    /// Attaches the subscriber, through a stateless subscriber that reads the key paths.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
      upstream.subscribe(
        KeyPathSubscriber(
          downstream: subscriber, name: "ValueForKeys",
          read: { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) },
          keyPaths: (keyPath0, keyPath1)))
    }
  }
}
