import CombineExCore
import Testing

/// A class cancellable that counts its cancels.
private final class CountingCancellable: Cancellable {
  var cancels = 0
  func cancel() { cancels += 1 }
}

/// A value-type cancellable that counts its cancels in a shared box.
private struct CountingValueCancellable: Cancellable {
  let counter: TestOwner
  func cancel() { counter.values.append(1) }
}

@Suite("AnyCancellable")
struct AnyCancellableTests {
  @Test("deinitializing an AnyCancellable cancels it")
  func cancelsOnDeinit() {
    var cancels = 0
    do {
      let cancellable = AnyCancellable { cancels += 1 }
      withExtendedLifetime(cancellable) { #expect(cancels == 0) }
    }
    #expect(cancels == 1)
  }

  @Test("cancel runs the closure once, however often it is called, and deinit adds nothing")
  func cancelIsIdempotent() {
    var cancels = 0
    do {
      let cancellable = AnyCancellable { cancels += 1 }
      cancellable.cancel()
      #expect(cancels == 1)
      cancellable.cancel()
      cancellable.cancel()
      #expect(cancels == 1)
    }
    #expect(cancels == 1)
  }

  @Test("cancelling a subscription twice is harmless: nothing arrives after the first")
  func cancelTwiceIsHarmless() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    subject.send(1)
    cancellable.cancel()
    cancellable.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    #expect(received == [1])
  }

  @Test("store(in:) inserts into a Set, and the set keeps the subscription alive")
  func storeInSet() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellables = Set<AnyCancellable>()
    subject.sink { received.append($0) }.store(in: &cancellables)
    #expect(cancellables.count == 1)
    subject.send(1)
    cancellables.removeAll()
    subject.send(2)
    #expect(received == [1])
  }

  @Test("store(in:) appends to an Array, in order, once per call")
  func storeInArray() {
    var cancels: [String] = []
    var cancellables: [AnyCancellable] = []
    let first = AnyCancellable { cancels.append("first") }
    let second = AnyCancellable { cancels.append("second") }
    first.store(in: &cancellables)
    second.store(in: &cancellables)
    first.store(in: &cancellables)
    #expect(cancellables == [first, second, first])
    cancellables.forEach { $0.cancel() }
    #expect(cancels == ["first", "second"])
  }

  @Test("storing the same AnyCancellable in a Set twice keeps one entry")
  func storeInSetTwice() {
    var cancellables = Set<AnyCancellable>()
    let cancellable = AnyCancellable {}
    cancellable.store(in: &cancellables)
    cancellable.store(in: &cancellables)
    #expect(cancellables.count == 1)
  }

  @Test("== and hashing follow object identity")
  func identity() {
    let first = AnyCancellable {}
    let second = AnyCancellable {}
    let alias = first
    #expect(first == alias)
    #expect(first != second)
    #expect(first.hashValue == alias.hashValue)
    let set: Set<AnyCancellable> = [first, second, alias]
    #expect(set.count == 2)
    #expect(set.contains(first))
    #expect(set.contains(second))
  }

  @Test("init wraps a class cancellable and cancels it once, on cancel or on deinit")
  func wrapsClassCancellable() {
    let wrapped = CountingCancellable()
    let cancellable = AnyCancellable(wrapped)
    cancellable.cancel()
    cancellable.cancel()
    #expect(wrapped.cancels == 1)

    let dropped = CountingCancellable()
    do { _ = AnyCancellable(dropped) }
    #expect(dropped.cancels == 1)
  }

  @Test("init wraps a struct cancellable and cancels it once, on cancel or on deinit")
  func wrapsStructCancellable() {
    let counter = TestOwner()
    let cancellable = AnyCancellable(CountingValueCancellable(counter: counter))
    cancellable.cancel()
    cancellable.cancel()
    #expect(counter.values == [1])

    let droppedCounter = TestOwner()
    do { _ = AnyCancellable(CountingValueCancellable(counter: droppedCounter)) }
    #expect(droppedCounter.values == [1])
  }

  @Test("wrapping an AnyCancellable in another cancels the inner one once")
  func wrapsAnyCancellable() {
    var cancels = 0
    let inner = AnyCancellable { cancels += 1 }
    let outer = AnyCancellable(inner)
    outer.cancel()
    inner.cancel()
    #expect(cancels == 1)
  }

  @Test("store(in:) on any Cancellable wraps it in an AnyCancellable")
  func storeOnCancellable() {
    let wrapped = CountingCancellable()
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    wrapped.store(in: &set)
    wrapped.store(in: &array)
    #expect(set.count == 1)
    #expect(array.count == 1)
    set.removeAll()
    #expect(wrapped.cancels == 1)
    array.removeAll()
    #expect(wrapped.cancels == 2)
  }

  @Test("cancel releases what the closure captured, while the AnyCancellable lives on")
  func cancelReleasesCaptures() {
    weak var weakOwner: TestOwner?
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = AnyCancellable { owner.values.append(1) }
    }
    #expect(weakOwner != nil)
    cancellable.cancel()
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancel releases a wrapped cancellable object, while the AnyCancellable lives on")
  func cancelReleasesWrappedObject() {
    weak var weakWrapped: CountingCancellable?
    let cancellable: AnyCancellable
    do {
      let wrapped = CountingCancellable()
      weakWrapped = wrapped
      cancellable = AnyCancellable(wrapped)
    }
    #expect(weakWrapped != nil)
    cancellable.cancel()
    #expect(weakWrapped == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancelling a subscription releases the subscriber's captures")
  func cancelReleasesSubscription() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable.cancel()
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }
}
