import CombineExCore

/// Binds `source` to the property `target`: every value of `source` sets `target.value`, at
/// once, on the thread that publishes, for as long as `target` lives, until `source` completes.
/// A failure ends the binding without changing the value.
///
/// ```swift
/// let query = MutableProperty("")
/// let typed = PassthroughSubject<String, Never>()
/// query <~ typed
/// typed.send("swift")
/// print(query.value)  // Prints: swift
/// ```
///
/// Neither side keeps the other alive: the property is held weakly, and it does not hold the
/// source. The subscription is kept on the property's behalf by
/// `Publisher/sink(duringLifetimeOf:receiveSubscription:receiveValue:receiveCompletion:receiveCancel:receiveRequest:)`:
/// once the property is gone, nothing more is delivered, and the subscription is cancelled no
/// later than the source's next event.
public func <~ <Target: MutablePropertyProtocol, Source: Publisher>(target: Target, source: Source)
where Source.Output == Target.Output {
  source.sink(
    duringLifetimeOf: target,
    receiveValue: { [weak target] value in target?.value = value })
}

/// Binds `source` to an optional property: every value of `source`, wrapped in `Optional`, sets
/// `target.value` (see the non-optional form).
///
/// ```swift
/// let selection = MutableProperty<Int?>(nil)
/// let taps = PassthroughSubject<Int, Never>()
/// selection <~ taps
/// taps.send(2)
/// print(selection.value ?? -1)  // Prints: 2
/// ```
public func <~ <Target: MutablePropertyProtocol, Source: Publisher>(target: Target, source: Source)
where Target.Output == Source.Output? {
  source.sink(
    duringLifetimeOf: target,
    receiveValue: { [weak target] value in target?.value = value })
}
