import CombineEx
import CombineExTesting
import Testing

/// Pairs as strings, so that recorded tuples compare.
private func text<A, B>(_ pair: (A, B)) -> String { "\(pair.0)|\(pair.1)" }

@Suite("Property combineLatest")
struct PropertyCombineLatestTests {
  @Test("combineLatest's value pairs the current values")
  func valuePairsCurrentValues() {
    let width = MutableProperty(2)
    let height = MutableProperty("m")
    let size = width.combineLatest(with: height)
    #expect(text(size.value) == "2|m")
    width.value = 4
    #expect(text(size.value) == "4|m")
  }

  @Test("combineLatest delivers the current pair, then a pair for every change of either")
  func deliversEveryChange() {
    let width = MutableProperty(2)
    let height = MutableProperty(3)
    let recorder = width.combineLatest(with: height).record()
    width.value = 4
    height.value = 5
    height.value = 5
    #expect(recorder.values.map(text) == ["2|3", "4|3", "4|5", "4|5"])
  }

  @Test("a combineLatest(with:) result composes with map")
  func instanceSpelling() {
    let first = MutableProperty("Ada")
    let last = MutableProperty("Lovelace")
    let fullName = first.combineLatest(with: last).map { "\($0) \($1)" }
    let recorder = fullName.record()
    last.value = "Byron"
    #expect(fullName.value == "Ada Byron")
    #expect(recorder.values == ["Ada Lovelace", "Ada Byron"])
  }

  @Test("combineLatest of three properties of different types gives triples")
  func threeTypes() {
    let a = MutableProperty(1)
    let b = MutableProperty("b")
    let c = MutableProperty(true)
    let all = a.combineLatest(with: b, c)
    let recorder = all.map { "\($0)\($1)\($2)" }.record()
    c.value = false
    #expect(all.value.2 == false)
    #expect(recorder.values == ["1btrue", "1bfalse"])
  }

  @Test("combineLatest of ten properties gives ten-tuples")
  func tenProperties() {
    let p = (0..<10).map { MutableProperty($0) }
    let all = p[0].combineLatest(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])
    let recorder = all.map { "\($0)\($1)\($2)\($3)\($4)\($5)\($6)\($7)\($8)\($9)" }.record()
    p[9].value = 0
    #expect(all.value.9 == 0)
    #expect(recorder.values == ["0123456789", "0123456780"])
  }

  @Test("every arity from 4 to 9 combines in order")
  func middleArities() {
    let p = (0..<9).map { MutableProperty($0) }
    let four = p[0].combineLatest(with: p[1], p[2], p[3])
    let five = p[0].combineLatest(with: p[1], p[2], p[3], p[4])
    let six = p[0].combineLatest(with: p[1], p[2], p[3], p[4], p[5])
    let seven = p[0].combineLatest(with: p[1], p[2], p[3], p[4], p[5], p[6])
    let eight = p[0].combineLatest(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7])
    let nine = p[0].combineLatest(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])
    p[0].value = 10
    #expect(four.value.0 == 10 && four.value.3 == 3)
    #expect(five.value.0 == 10 && five.value.4 == 4)
    #expect(six.value.0 == 10 && six.value.5 == 5)
    #expect(seven.value.0 == 10 && seven.value.6 == 6)
    #expect(eight.value.0 == 10 && eight.value.7 == 7)
    let recorder = nine.record()
    p[8].value = 80
    #expect(recorder.values.map { $0.8 } == [8, 80])
  }

  @Test("combineLatest of an array of properties gives arrays in the array's order")
  func array() {
    let downloads = [MutableProperty(0.0), MutableProperty(0.5), MutableProperty(0.25)]
    let progress = downloads.combineLatest()
    let recorder = progress.record()
    downloads[2].value = 1
    #expect(progress.value == [0.0, 0.5, 1.0])
    #expect(recorder.values == [[0.0, 0.5, 0.25], [0.0, 0.5, 1.0]])
  }

  @Test("combineLatest of an empty array is a constant empty array")
  func emptyArray() {
    let none: [MutableProperty<Int>] = []
    let combined = none.combineLatest()
    #expect(combined.value == [])
    #expect(combined.record().events == [.subscription, .value([]), .completion(.finished)])
  }

  @Test("a combineLatest subscriber with limited demand receives the latest pair when it asks")
  func limitedDemand() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let recorder = [a, b].combineLatest().record(initialDemand: .max(1))
    a.value = 1
    b.value = 2
    a.value = 3
    #expect(recorder.values == [[0, 0]])
    recorder.request(.max(1))
    #expect(recorder.values == [[0, 0], [3, 2]])
    recorder.request(.max(1))
    b.value = 4
    #expect(recorder.values == [[0, 0], [3, 2], [3, 4]])
  }

  @Test("a subscriber that requests nothing receives nothing until it asks")
  func noDemand() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let recorder = [a, b].combineLatest().record(initialDemand: .none)
    a.value = 1
    #expect(recorder.values == [])
    recorder.request(.max(1))
    #expect(recorder.values == [[1, 0]])
  }

  @Test("a source set from inside a combineLatest subscriber is delivered after, in order")
  func reentrantSet() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let combined = [a, b].combineLatest()
    var seen: [[Int]] = []
    let cancellable = combined.sink { values in
      seen.append(values)
      if values == [1, 0] {
        b.value = 2
        a.value = 3
        seen.append([-1])  // marks the end of this delivery
      }
    }
    a.value = 1
    #expect(seen == [[0, 0], [1, 0], [-1], [1, 2], [3, 2]])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a combineLatest subscriber may cancel itself from inside a delivery")
  func reentrantCancel() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    var seen: [[Int]] = []
    var cancellable: AnyCancellable?
    cancellable = [a, b].combineLatest().sink { values in
      seen.append(values)
      if values[0] == 1 { cancellable?.cancel() }
    }
    a.value = 1
    a.value = 2
    #expect(seen == [[0, 0], [1, 0]])
  }

  @Test("cancelling a combineLatest subscription stops deliveries and reaches every source")
  func cancelReachesSources() {
    let a = ProbedProperty(0)
    let b = ProbedProperty(0)
    let recorder = a.combineLatest(with: b).record()
    recorder.cancel()
    a.source.value = 1
    #expect(recorder.values.count == 1)
    #expect(a.probe.cancels == 1)
    #expect(b.probe.cancels == 1)
  }

  @Test("combineLatest is eager: it subscribes to every source once, for all its subscribers")
  func eager() {
    let a = ProbedProperty(0)
    let b = ProbedProperty(0)
    let combined = a.combineLatest(with: b)
    #expect(a.probe.subscriptions == 1)
    let first = combined.map(text).record()
    let second = combined.map(text).record()
    a.source.value = 1
    #expect(a.probe.subscriptions == 1)
    #expect(b.probe.subscriptions == 1)
    #expect(first.values == ["0|0", "1|0"] && second.values == ["0|0", "1|0"])
  }

  @Test("dropping an unobserved combineLatest cancels its subscriptions to the sources")
  func droppingCancels() {
    let a = ProbedProperty(0)
    let b = ProbedProperty(0)
    var combined: Property<(Int, Int)>? = a.combineLatest(with: b)
    #expect(combined!.value == (0, 0))
    combined = nil
    #expect(a.probe.cancels == 1)
    #expect(b.probe.cancels == 1)
  }

  @Test("combineLatest finishes once every source finished")
  func finishesWhenAllFinish() {
    let recorder = Property(value: 1).combineLatest(with: Property(value: 2))
      .map(text).record()
    #expect(recorder.events == [.subscription, .value("1|2"), .completion(.finished)])
  }

  @Test("combineLatest of a constant and a mutable property goes on after the constant ends")
  func constantAndMutable() {
    let mutable = MutableProperty(1)
    let recorder = Property(value: "c").combineLatest(with: mutable).map(text).record()
    mutable.value = 2
    #expect(recorder.values == ["c|1", "c|2"])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a source that ends without a value finishes combineLatest, after the current values")
  func finishesOnEmptySource() {
    let mutable = ProbedProperty(1)
    let recorder = mutable.combineLatest(with: ValuelessProperty(0)).map(text).record()
    #expect(recorder.events == [.subscription, .value("1|0"), .completion(.finished)])
    #expect(mutable.probe.cancels == 1)
  }

  @Test("combineLatest and its sources are freed once their users are gone")
  func freed() {
    weak var weakA: MutableProperty<Int>?
    weak var weakB: MutableProperty<Int>?
    weak var weakCombined: Property<(Int, Int)>?
    do {
      let a = MutableProperty(0)
      let b = MutableProperty(0)
      weakA = a
      weakB = b
      let combined = a.combineLatest(with: b)
      weakCombined = combined
      let recorder = combined.record()
      a.value = 1
      #expect(recorder.values.map(text) == ["0|0", "1|0"])
      recorder.cancel()
    }
    #expect(weakCombined == nil)
    #expect(weakA == nil)
    #expect(weakB == nil)
  }

  @Test("a combineLatest subscription is freed with its subscriber while sources live on")
  func subscriptionFreed() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    weak var weakOwner: TestOwnerObject?
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwnerObject()
      weakOwner = owner
      cancellable = [a, b].combineLatest().sink { owner.values.append($0[0]) }
    }
    a.value = 1
    #expect(weakOwner?.values == [0, 1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }
}
