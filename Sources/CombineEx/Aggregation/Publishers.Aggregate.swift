import CombineExCore

extension Publishers {
  /// A publisher that combines any number of publishers, of any output types, with one
  /// strategy: `combineLatest` or `zip`.
  ///
  /// It is what the original CombineEx's wider `combineLatest` and `zip` return (with 4 to 9
  /// other publishers, the static `combineLatest` of 2 to 10, and the array forms):
  ///
  /// ```swift
  /// let a = CurrentValueSubject<Int, Never>(1)
  /// let b = CurrentValueSubject<String, Never>("b")
  /// let c = CurrentValueSubject<Bool, Never>(true)
  /// let d = CurrentValueSubject<Double, Never>(0.5)
  /// let e = CurrentValueSubject<Int, Never>(5)
  /// let cancellable = a.combineLatest(b, c, d, e).sink { print($0) }
  /// // Prints: (1, "b", true, 0.5, 5)
  /// e.send(6)
  /// // Prints: (1, "b", true, 0.5, 6)
  /// ```
  ///
  /// The rules are those of Combine's `CombineLatest` and `Zip`, which it shares its engine
  /// with:
  /// - **Subscription.** For each subscriber the `componentBuilder` runs and adds the inputs;
  ///   the subscriber receives its subscription; then the inputs are subscribed in order (once
  ///   the combination is over, by a synchronous failure or a cancel, the rest are not). With
  ///   no inputs at all, the subscriber finishes at once.
  /// - **Values.** `combineLatest`: once every input has published, each value that arrives
  ///   while the subscriber has demand publishes the latest value of every input; a value
  ///   that arrives without demand only replaces its input's latest value. `zip`: the i-th
  ///   output combines the i-th value of every input, published when the subscriber has
  ///   demand; values wait meanwhile.
  /// - **Demand.** The subscriber's requests pass through to every input, so the subscriber
  ///   never receives more than it asked for, and `zip` buffers no more than it was asked for.
  ///   (The original CombineEx requested unlimited values and ignored the subscriber's demand.)
  /// - **Completion.** `combineLatest` finishes once every input has finished, or as soon as
  ///   an input finishes without having published (nothing could ever be published then);
  ///   `zip` finishes once an input has finished and its values are used up. The first
  ///   failure cancels the other inputs and is delivered at once. The inputs still running
  ///   are cancelled when the result finishes.
  /// - **Cancellation** cancels every input and releases the subscriber.
  /// - **Threading.** The inputs may publish from any threads at once: the subscriber receives
  ///   one value at a time, in the order the values arrived, and a sender never waits for
  ///   another. A value published from inside the subscriber's `receive` is delivered after
  ///   it returns. `aggregationBlock` runs on the delivering thread, outside any lock.
  public struct Aggregate<Output, Failure: Error>: Publisher {
    /// How the inputs' values are combined.
    public enum Strategy: Sendable {
      /// Publishes, whenever any input publishes, the latest value of every input.
      case combineLatest

      /// Publishes the i-th value of every input, once every input has published an i-th
      /// value.
      case zip
    }

    // Internal and inlinable, with the machinery under them: the subscriber's module
    // specializes the per-value path (combining storage, values, the subscriber) for its
    // types instead of running it generic, with a metadata lookup per type per value.
    @usableFromInline
    let strategy: Strategy
    @usableFromInline
    let inputs: Inputs

    /// Where an aggregate's inputs come from.
    @usableFromInline
    enum Inputs {
      /// Added for each subscription by a builder, their values combined as `[Any]` by
      /// the aggregation block (the public initializer).
      case built(
        by: (any AggregatePublisherAggregator<Failure>) -> Void,
        aggregationBlock: ([Any]) -> Output)
      /// Known where the aggregate was made (the fixed-arity and array forms): the function
      /// subscribes them for one subscriber, through a combining storage made where their
      /// types are known, which keeps their values typed.
      case known(subscribe: (AggregateDownstream<Output, Failure>) -> Void)
    }

    /// Creates a publisher that combines the publishers `componentBuilder` adds, with
    /// `strategy`, making each output with `aggregationBlock` from one value per input (in the
    /// order the inputs were added).
    ///
    /// ```swift
    /// let sum = Publishers.Aggregate<Int, Never>(strategy: .zip) { aggregator in
    ///   aggregator.add([1, 2].publisher)
    ///   aggregator.add([10, 20].publisher)
    /// } aggregationBlock: { values in values.reduce(0) { $0 + ($1 as! Int) } }
    /// let cancellable = sum.sink { print($0) }
    /// // Prints: 11, 22
    /// ```
    @inlinable
    public init(
      strategy: Strategy,
      componentBuilder: @escaping (any AggregatePublisherAggregator<Failure>) -> Void,
      aggregationBlock: @escaping ([Any]) -> Output
    ) {
      self.strategy = strategy
      inputs = .built(by: componentBuilder, aggregationBlock: aggregationBlock)
    }

    /// An aggregate of inputs known where it is made: `subscribe` hands the subscriber its
    /// subscription, then subscribes them in order (see ``Inputs/known(subscribe:)``).
    @inlinable
    init(
      strategy: Strategy, subscribe: @escaping (AggregateDownstream<Output, Failure>) -> Void
    ) {
      self.strategy = strategy
      inputs = .known(subscribe: subscribe)
    }

    /// Adds the inputs, hands the subscriber its subscription, then subscribes the inputs.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      switch (inputs, strategy) {
      case (.known(let subscribe), _):
        subscribe(AggregateDownstream(subscriber))
      case (.built(let builder, let aggregationBlock), .combineLatest):
        attach(
          subscriber, builtBy: builder, aggregationBlock: aggregationBlock,
          combining: AggregateLatestValues<Any>.self)
      case (.built(let builder, let aggregationBlock), .zip):
        attach(
          subscriber, builtBy: builder, aggregationBlock: aggregationBlock,
          combining: ZipQueues<Any>.self)
      }
    }

    @inlinable
    func attach<Values: AggregateValues<Any>, S: Subscriber>(
      _ subscriber: S, builtBy builder: (any AggregatePublisherAggregator<Failure>) -> Void,
      aggregationBlock: @escaping ([Any]) -> Output, combining: Values.Type
    ) where S.Input == Output, S.Failure == Failure {
      typealias Downstream = AggregateOutputSubscriber<S>
      let collector = AggregateCollector<Values, Downstream>()
      builder(collector)
      let inputs = collector.close()
      guard !inputs.isEmpty else {
        Empty<Output, Failure>().receive(subscriber: subscriber)
        return
      }
      let storage = CombiningStorage(
        downstream: Downstream(downstream: subscriber, aggregationBlock: aggregationBlock),
        name: "Aggregate", values: Values(inputCount: inputs.count))
      storage.start()
      for (index, subscribe) in inputs.enumerated() {
        subscribe(storage, index)
      }
    }
  }
}

extension Publishers.Aggregate {
  /// An aggregate of the publishers of `publishers`, whose output is the array of their values,
  /// in order: what the array forms build. The values are kept as arrays of their type.
  @inlinable
  init<Input: Publisher>(strategy: Strategy, _ publishers: [Input])
  where Output == [Input.Output], Input.Failure == Failure {
    self.init(strategy: strategy) { downstream in
      switch strategy {
      case .combineLatest:
        Self.subscribe(
          publishers, to: downstream, combining: AggregateLatestValues<Input.Output>.self)
      case .zip:
        Self.subscribe(publishers, to: downstream, combining: ZipQueues<Input.Output>.self)
      }
    }
  }

  /// Hands `downstream` its subscription, then subscribes `publishers` in order, their values
  /// kept in `Values` (with no publishers, `downstream` finishes at once).
  @inlinable
  static func subscribe<Input: Publisher, Values: AggregateValues<Input.Output>>(
    _ publishers: [Input], to downstream: AggregateDownstream<Output, Failure>,
    combining: Values.Type
  ) where Output == [Input.Output], Input.Failure == Failure {
    guard !publishers.isEmpty else {
      Empty<Output, Failure>().receive(subscriber: downstream)
      return
    }
    let storage = CombiningStorage(
      downstream: downstream, name: "Aggregate", values: Values(inputCount: publishers.count))
    storage.start()
    for (index, publisher) in publishers.enumerated() {
      storage.subscribe(publisher, at: index) { values, value in values.store(value, at: index) }
    }
  }
}
