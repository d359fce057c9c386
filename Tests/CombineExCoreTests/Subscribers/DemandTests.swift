import CombineExCore
import Foundation
import Testing

@Suite("Subscribers.Demand")
struct DemandTests {
  typealias Demand = Subscribers.Demand

  // MARK: Values

  @Test(".max(0) is legal and equals .none")
  func maxZeroIsLegal() {
    let zero = Demand.max(0)
    #expect(zero == .none)
    #expect(zero.max == 0)
    #expect(zero == 0)
    #expect(zero.description == "max(0)")
  }

  @Test(".max is the number of values, or nil for .unlimited")
  func maxProperty() {
    #expect(Demand.max(3).max == 3)
    #expect(Demand.none.max == 0)
    #expect(Demand.max(Int.max).max == Int.max)
    #expect(Demand.unlimited.max == nil)
  }

  @Test("the description is \"unlimited\" or \"max(n)\"")
  func description() {
    #expect(Demand.unlimited.description == "unlimited")
    #expect(Demand.max(3).description == "max(3)")
    #expect(Demand.none.description == "max(0)")
    #expect("\(Demand.max(42))" == "max(42)")
  }

  // MARK: Addition

  @Test("adding demands sums them, and .unlimited absorbs everything")
  func addDemands() {
    #expect(Demand.max(2) + .max(3) == .max(5))
    #expect(Demand.none + .none == .none)
    #expect(Demand.max(2) + .unlimited == .unlimited)
    #expect(Demand.unlimited + .max(2) == .unlimited)
    #expect(Demand.unlimited + .unlimited == .unlimited)
  }

  @Test("a sum that overflows saturates at .unlimited")
  func addSaturates() {
    #expect(Demand.max(Int.max) + .max(1) == .unlimited)
    #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
    #expect(Demand.max(Int.max) + 1 == .unlimited)
    #expect(Demand.max(Int.max - 1) + 1 == .max(Int.max))
  }

  @Test("adding an Int adds that many values; a negative Int subtracts, stopping at .none")
  func addInt() {
    #expect(Demand.max(2) + 3 == .max(5))
    #expect(Demand.max(2) + 0 == .max(2))
    #expect(Demand.unlimited + 3 == .unlimited)
    #expect(Demand.max(5) + -2 == .max(3))
    #expect(Demand.max(1) + -2 == .none)
    #expect(Demand.max(1) + Int.min == .none)
    #expect(Demand.unlimited + -2 == .unlimited)
  }

  @Test("+= adds a demand or an Int in place")
  func addAssign() {
    var demand = Demand.max(1)
    demand += .max(2)
    #expect(demand == .max(3))
    demand += 4
    #expect(demand == .max(7))
    demand += -10
    #expect(demand == .none)
    demand += .unlimited
    #expect(demand == .unlimited)
    demand += 1
    #expect(demand == .unlimited)
  }

  // MARK: Subtraction

  @Test("subtracting demands never goes below .none")
  func subtractDemands() {
    #expect(Demand.max(5) - .max(2) == .max(3))
    #expect(Demand.max(2) - .max(2) == .none)
    #expect(Demand.max(2) - .max(5) == .none)
    #expect(Demand.none - .max(1) == .none)
  }

  @Test(".unlimited minus anything, even .unlimited, stays .unlimited (as in Combine)")
  func subtractFromUnlimited() {
    #expect(Demand.unlimited - .max(5) == .unlimited)
    #expect(Demand.unlimited - .max(Int.max) == .unlimited)
    #expect(Demand.unlimited - .unlimited == .unlimited)
    #expect(Demand.unlimited - 5 == .unlimited)
    #expect(Demand.unlimited - Int.max == .unlimited)
  }

  @Test("a finite demand minus .unlimited is .none")
  func subtractUnlimited() {
    #expect(Demand.max(5) - .unlimited == .none)
    #expect(Demand.none - .unlimited == .none)
  }

  @Test("subtracting an Int removes that many values; a negative Int adds")
  func subtractInt() {
    #expect(Demand.max(5) - 2 == .max(3))
    #expect(Demand.max(1) - 2 == .none)
    #expect(Demand.max(1) - -2 == .max(3))
    #expect(Demand.unlimited - -1 == .unlimited)
  }

  @Test("subtracting a negative Int past Int.max gives none, as Combine's overflow does")
  func subtractNegativeIntOverflows() {
    #expect(Demand.max(Int.max) - -1 == .none)
    #expect(Demand.max(Int.max - 1) - -1 == .max(Int.max))
    var demand = Demand.max(Int.max)
    demand -= -1
    #expect(demand == .none)
  }

  @Test("-= subtracts a demand or an Int in place")
  func subtractAssign() {
    var demand = Demand.max(10)
    demand -= .max(3)
    #expect(demand == .max(7))
    demand -= 2
    #expect(demand == .max(5))
    demand -= .unlimited
    #expect(demand == .none)
    demand -= 1
    #expect(demand == .none)

    var unlimited = Demand.unlimited
    unlimited -= 1
    #expect(unlimited == .unlimited)
    unlimited -= .unlimited
    #expect(unlimited == .unlimited)
  }

  // MARK: Multiplication

  @Test("multiplying by an Int scales finite demand, saturating at .unlimited")
  func multiply() {
    #expect(Demand.max(3) * 4 == .max(12))
    #expect(Demand.max(3) * 0 == .none)
    #expect(Demand.none * 7 == .none)
    #expect(Demand.unlimited * 2 == .unlimited)
    #expect(Demand.unlimited * 0 == .unlimited)
    #expect(Demand.max(Int.max) * 2 == .unlimited)
    #expect(Demand.max(Int.max / 2) * 2 == .max(Int.max - 1))
  }

  @Test("*= multiplies in place")
  func multiplyAssign() {
    var demand = Demand.max(2)
    demand *= 5
    #expect(demand == .max(10))
    demand *= Int.max
    #expect(demand == .unlimited)
  }

  // MARK: Comparison

  @Test("demands compare by count, and .unlimited is the largest")
  func compareDemands() {
    #expect(Demand.max(1) < .max(2))
    #expect(Demand.max(2) > .max(1))
    #expect(Demand.max(2) <= .max(2))
    #expect(Demand.max(2) >= .max(2))
    #expect(Demand.max(Int.max) < .unlimited)
    #expect(Demand.unlimited > .max(Int.max))
    #expect(Demand.unlimited >= .unlimited)
    #expect(Demand.unlimited <= .unlimited)
    #expect(!(Demand.unlimited < .unlimited))
    #expect(Demand.none < .max(1))
    #expect(Demand.max(1) != .max(2))
    #expect(Demand.unlimited != .max(Int.max))
    #expect([Demand.unlimited, .max(3), .none].sorted() == [.none, .max(3), .unlimited])
  }

  @Test("a demand compares with an Int on either side")
  func compareWithInt() {
    let three = Demand.max(3)
    #expect(three == 3)
    #expect(3 == three)
    #expect(three != 4)
    #expect(4 != three)
    #expect(three < 4)
    #expect(2 < three)
    #expect(three <= 3)
    #expect(3 <= three)
    #expect(three > 2)
    #expect(4 > three)
    #expect(three >= 3)
    #expect(3 >= three)
    #expect(!(three > 3))
    #expect(!(three < 3))
  }

  @Test(".unlimited is greater than every Int and equal to none")
  func compareUnlimitedWithInt() {
    let unlimited = Demand.unlimited
    #expect(unlimited > Int.max)
    #expect(unlimited >= Int.max)
    #expect(Int.max < unlimited)
    #expect(Int.max <= unlimited)
    #expect(!(unlimited < Int.max))
    #expect(!(unlimited <= Int.max))
    #expect(unlimited != Int.max)
    #expect(Int.max != unlimited)
    #expect(!(unlimited == Int.max))
  }

  @Test("every demand is greater than a negative Int and equal to none")
  func compareWithNegativeInt() {
    #expect(Demand.none > -1)
    #expect(Demand.none >= -1)
    #expect(-1 < Demand.none)
    #expect(Demand.none != -1)
    #expect(!(Demand.none == -1))
    #expect(!(Demand.none < -1))
  }

  // MARK: Hashable and Codable

  @Test("equal demands hash equally, so they work as set elements and keys")
  func hashable() {
    let set: Set<Demand> = [.max(1), .max(1), .none, .max(0), .unlimited, .unlimited]
    #expect(set == [.max(1), .none, .unlimited])
    #expect(Demand.max(7).hashValue == (Demand.max(3) + 4).hashValue)
    #expect(Demand.unlimited.hashValue == (Demand.unlimited - .unlimited).hashValue)
  }

  @Test("a demand survives an encode/decode round trip")
  func codableRoundTrip() throws {
    let demands: [Demand] = [.none, .max(1), .max(3), .max(Int.max), .unlimited]
    let data = try JSONEncoder().encode(demands)
    let decoded = try JSONDecoder().decode([Demand].self, from: data)
    #expect(decoded == demands)
  }

  @Test("a demand is encoded as a single number")
  func codableForm() throws {
    let data = try JSONEncoder().encode([Demand.max(3)])
    #expect(String(decoding: data, as: UTF8.self) == "[3]")
  }
}
