import CombineEx
import CombineExTesting
import Testing

private struct Item: Identifiable, Equatable {
  let id: String
  var count: Int
}

/// A model made from an item's property; counts how often its `count` property publishes.
private final class ItemModel {
  let id: String
  let count: Property<Int>
  private var cancellable: AnyCancellable?
  private(set) var emissions = 0

  init(_ item: Property<Item>) {
    id = item.value.id
    count = item.map(\.count)
    cancellable = item.sink { [unowned self] _ in emissions += 1 }
  }
}

@Suite("propertyMap")
struct PropertyMapOperatorTests {
  @Test("makes one model per id, in the input's order, and publishes the first array")
  func modelsPerID() {
    let subject = CurrentValueSubject<[Item], Never>([])
    var made = 0
    let recorder = subject.propertyMap { item -> ItemModel in
      made += 1
      return ItemModel(item)
    }.record()
    #expect(recorder.values.map { $0.map(\.id) } == [[]])
    subject.send([Item(id: "a", count: 1), Item(id: "b", count: 2)])
    #expect(recorder.values.last?.map(\.id) == ["a", "b"])
    #expect(recorder.values.last?.map(\.count.value) == [1, 2])
    #expect(made == 2)
  }

  @Test("a change of contents updates the models' properties in place and publishes nothing")
  func updatesInPlace() {
    let subject = CurrentValueSubject<[Item], Never>([Item(id: "a", count: 1)])
    var made = 0
    let recorder = subject.propertyMap { item -> ItemModel in
      made += 1
      return ItemModel(item)
    }.record()
    let model = recorder.values[0][0]
    subject.send([Item(id: "a", count: 5)])
    #expect(recorder.values.count == 1)
    #expect(model.count.value == 5)
    #expect(made == 1)
  }

  @Test("with removeDuplicates an unchanged element does not publish again; without, it does")
  func removeDuplicates() {
    let subject = CurrentValueSubject<[Item], Never>([Item(id: "a", count: 1)])
    let deduplicated = subject.propertyMap(removeDuplicates: true) { ItemModel($0) }.record()
    let everyVersion = subject.propertyMap(removeDuplicates: false) { ItemModel($0) }.record()
    subject.send([Item(id: "a", count: 1)])
    subject.send([Item(id: "a", count: 2)])
    #expect(deduplicated.values[0][0].emissions == 2)
    #expect(everyVersion.values[0][0].emissions == 3)
  }

  @Test("a new order, a new id or a removed id publishes; only new ids make models")
  func publishesOnIDChanges() {
    let subject = CurrentValueSubject<[Item], Never>([
      Item(id: "a", count: 1), Item(id: "b", count: 2),
    ])
    var made: [String] = []
    let recorder = subject.propertyMap { item -> ItemModel in
      made.append(item.value.id)
      return ItemModel(item)
    }.record()
    let first = recorder.values[0]
    subject.send([Item(id: "b", count: 2), Item(id: "a", count: 1)])
    subject.send([Item(id: "c", count: 0), Item(id: "a", count: 1)])
    #expect(recorder.values.map { $0.map(\.id) } == [["a", "b"], ["b", "a"], ["c", "a"]])
    #expect(made == ["a", "b", "c"])
    #expect(recorder.values[1][1] === first[0])
    // A removed id is forgotten: when it comes back, a new model is made.
    subject.send([Item(id: "b", count: 9)])
    #expect(made == ["a", "b", "c", "b"])
    #expect(recorder.values.last?.first !== first[1])
  }

  @Test("an array that publishes nothing gives its demand back; failure passes through")
  func demandAndFailure() {
    let subject = PassthroughSubject<[Item], ColdTestError>()
    let recorder = subject.propertyMap { ItemModel($0) }.record(initialDemand: .max(2))
    subject.send([Item(id: "a", count: 1)])
    subject.send([Item(id: "a", count: 2)])
    subject.send([Item(id: "b", count: 1)])
    #expect(recorder.values.map { $0.map(\.id) } == [["a"], ["b"]])
    subject.send(completion: .failure(ColdTestError(1)))
    #expect(recorder.receivedCompletion == .failure(ColdTestError(1)))
  }

  @Test("each subscription keeps its own models; cancel releases them")
  func perSubscriptionAndRelease() {
    let subject = CurrentValueSubject<[Item], Never>([Item(id: "a", count: 1)])
    let publisher = subject.propertyMap { ItemModel($0) }
    let first = publisher.record()
    let second = publisher.record()
    #expect(first.values[0][0] !== second.values[0][0])

    weak var weakModel: ItemModel?
    do {
      let cancellable = subject.propertyMap { item -> ItemModel in
        let model = ItemModel(item)
        weakModel = model
        return model
      }.sink { _ in }
      #expect(weakModel != nil)
      cancellable.cancel()
    }
    #expect(weakModel == nil)
  }

  @Test("returns Publishers.PropertyMap, cold on a cold upstream")
  func typeAndColdness() {
    let items = [Item(id: "a", count: 1)]
    let runs = RunCounter()
    let mapped = Deferred { () -> Just<[Item]> in
      runs.increment()
      return Just(items)
    }.propertyMap { $0.value.count }
    #expect(
      type(of: mapped) == Publishers.PropertyMap<Deferred<Just<[Item]>>, Item, Int>.self)
    let erased: AnyDeferredPublisher<[Int], Never> = mapped.eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [[1]])
    #expect(runs.value == 1)
  }
}
